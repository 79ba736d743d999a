import { useSyncExternalStore } from 'react';

/**
 * The spec's "selected category": shared state set by the home category cards and read by the
 * Categories page. Kept in sessionStorage so a reload keeps it; the page also honours `?category=`.
 */
const KEY = 'bulkcart.selectedCategory';
const listeners = new Set<() => void>();

/** The selected category now, outside React (e.g. to start the Categories page's request early). */
export function readSelectedCategory(): string {
  try {
    return sessionStorage.getItem(KEY) ?? '';
  } catch {
    return '';
  }
}

export function setSelectedCategory(category: string): void {
  try {
    if (category) sessionStorage.setItem(KEY, category);
    else sessionStorage.removeItem(KEY);
  } catch {
    // Storage can be unavailable (private mode); the URL still carries the choice.
  }
  for (const listener of listeners) listener();
}

export function useSelectedCategory(): string {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    readSelectedCategory,
    () => '',
  );
}
