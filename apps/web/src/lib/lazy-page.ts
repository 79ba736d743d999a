import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export type PreloadableComponent<P extends object> = LazyExoticComponent<ComponentType<P>> & {
  /** Starts downloading the chunk now, e.g. while the session check is still out. */
  preload(): Promise<unknown>;
};

/**
 * React.lazy for a named export, with a preload that the lazy component then reuses. A failed
 * download is forgotten, so the next attempt asks again instead of replaying the failure.
 */
export function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>): PreloadableComponent<P> {
  let pending: Promise<{ default: ComponentType<P> }> | null = null;
  const preload = () =>
    (pending ??= load().then(
      (component) => ({ default: component }),
      (error: unknown) => {
        pending = null;
        throw error;
      },
    ));
  return Object.assign(lazy(preload), { preload });
}
