import type { ReactNode } from 'react';

/** The id of the line under a field: its error when it has one, else its hint. */
const noteId = (id: string) => `${id}-note`;

interface FormFieldProps {
  id: string;
  label: string;
  error?: string;
  /** Shown under the field while it has no error. */
  hint?: string;
  className?: string;
  children: ReactNode;
}

/** A labelled field with its error (or hint) underneath, linked for screen readers by fieldAria. */
export function FormField({ id, label, error, hint, className = '', children }: FormFieldProps) {
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children}
      {error ? (
        <p id={noteId(id)} className="text-sm text-error">
          {error}
        </p>
      ) : hint ? (
        <p id={noteId(id)} className="text-xs text-base-content/60">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** The id and aria props of the control inside a FormField of the same id, error and hint. */
export function fieldAria(id: string, error: string | undefined, hint?: string) {
  return { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': error || hint ? noteId(id) : undefined } as const;
}

/** A text input's classes: a visible border, red while the field is invalid. */
export function inputClass(isInvalid: boolean): string {
  return `input w-full border ${isInvalid ? 'border-error' : 'border-base-content/25'}`;
}
