const SIZES = { xs: 'loading-xs', sm: 'loading-sm', lg: 'loading-lg' } as const;

type SpinnerProps =
  /**
   * Something the page waits for: a status region that says what is loading (`label`, read by
   * screen readers), with room around it, or filling the screen below the navbar (`fullHeight`).
   */
  | { inline?: false; label?: string; fullHeight?: boolean }
  /**
   * Beside words that already say what is happening (a button's label, a line of text): decoration,
   * hidden from screen readers, sized to the text.
   */
  | { inline: true; size?: 'xs' | 'sm' };

/** The one spinner of the app: every wait shows this, never a hand-made `loading` span. */
export function Spinner(props: SpinnerProps) {
  if (props.inline) return <span className={`loading loading-spinner ${SIZES[props.size ?? 'sm']}`} aria-hidden="true" />;
  const { fullHeight = false, label = 'Loading' } = props;
  return (
    <div role="status" aria-live="polite" className={`flex w-full items-center justify-center ${fullHeight ? 'min-h-[calc(100vh-4rem)]' : 'py-16'}`}>
      <span className={`loading loading-spinner ${SIZES.lg} text-primary`} aria-hidden="true" />
      <span className="sr-only">{label}</span>
    </div>
  );
}
