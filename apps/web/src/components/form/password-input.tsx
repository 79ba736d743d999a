import { useState, type ComponentPropsWithRef } from 'react';
import { inputClass } from './form-field.tsx';

/** A password field with a show/hide toggle (docs/product/screens.md: the field toggles between hidden and visible). */
export function PasswordInput(props: Omit<ComponentPropsWithRef<'input'>, 'type' | 'className'>) {
  const [isVisible, setIsVisible] = useState(false);
  return (
    // A div, not a label: a wrapping label would fold the toggle's name into the field's name.
    <div className={`${inputClass(Boolean(props['aria-invalid']))} pr-1`}>
      <input {...props} type={isVisible ? 'text' : 'password'} className="grow" />
      <button
        type="button"
        className="btn btn-ghost btn-xs"
        onClick={() => setIsVisible((v) => !v)}
        aria-label={isVisible ? 'Hide password' : 'Show password'}
        aria-pressed={isVisible}
        aria-controls={props.id}
      >
        {isVisible ? <EyeOffIcon /> : <EyeIcon />}
      </button>
    </div>
  );
}

function EyeIcon() {
  return (
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" className="h-4 w-4" aria-hidden="true">
      <path strokeLinecap="round" strokeLinejoin="round" d="M2.5 12s3.5-7 9.5-7 9.5 7 9.5 7-3.5 7-9.5 7-9.5-7-9.5-7Z" />
      <circle cx="12" cy="12" r="3" />
    </svg>
  );
}

function EyeOffIcon() {
  return (
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" className="h-4 w-4" aria-hidden="true">
      <path
        strokeLinecap="round"
        strokeLinejoin="round"
        d="M3 3l18 18M10.6 5.1A9.9 9.9 0 0 1 12 5c6 0 9.5 7 9.5 7a16 16 0 0 1-3.2 4.2M6.6 6.6C4 8.3 2.5 12 2.5 12s3.5 7 9.5 7a9.7 9.7 0 0 0 5.4-1.6M9.9 9.9a3 3 0 0 0 4.2 4.2"
      />
    </svg>
  );
}
