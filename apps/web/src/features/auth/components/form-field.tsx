import type { ReactNode } from 'react';

/** A labelled field with its error underneath, linked for screen readers. */
export function FormField({ id, label, error, children }: { id: string; label: string; error?: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** aria props for an input inside FormField. */
export function fieldAria(id: string, error: string | undefined) {
  return { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? `${id}-error` : undefined } as const;
}

/**
 * The explicit border stands in for daisyUI's, which reads a `--border` size the theme in index.css
 * does not define yet (so daisyUI inputs draw none).
 */
export function inputClass(isInvalid: boolean): string {
  return `input w-full border ${isInvalid ? 'border-error' : 'border-base-content/25'}`;
}
