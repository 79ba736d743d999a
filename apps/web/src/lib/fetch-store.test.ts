import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client.ts';
import { createFetchStore, invalidateLinkedStores } from './fetch-store.ts';

/** A fetcher whose answers the test hands out one by one, counting the calls. */
function controlledFetcher<T>() {
  const pending: { resolve: (value: T) => void; reject: (error: unknown) => void }[] = [];
  const fetcher = vi.fn(
    () =>
      new Promise<T>((resolve, reject) => {
        pending.push({ resolve, reject });
      }),
  );
  return { fetcher, pending };
}

const networkError = () => new ApiError(0, 'NETWORK', 'Error', 'Cannot reach the server.');

afterEach(() => {
  vi.useRealTimers();
});

describe('createFetchStore', () => {
  it('asks once for everyone who wants the data at the same time, and shares the answer', async () => {
    const fetcher = vi.fn(async () => ({ user: 'ada' }));
    const store = createFetchStore(fetcher, { staleMs: 60_000 });
    const unsubscribe = store.subscribe(() => undefined);
    const [first, second] = await Promise.all([store.load(), store.load()]);

    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(first).toEqual({ user: 'ada' });
    expect(second).toBe(first);
    expect(store.getState()).toMatchObject({ data: { user: 'ada' }, isPending: false, isError: false });
    unsubscribe();
  });

  it('retries a network failure twice, then reports it as an error that is no longer pending', async () => {
    vi.useFakeTimers();
    const fetcher = vi.fn(async () => {
      throw networkError();
    });
    const store = createFetchStore(fetcher, { staleMs: 60_000 });
    const loading = store.load();
    await vi.advanceTimersByTimeAsync(1000 + 2000);
    await loading;

    expect(fetcher).toHaveBeenCalledTimes(3);
    expect(store.getState()).toMatchObject({ data: undefined, isPending: false, isError: true });
    expect(store.getState().error).toBeInstanceOf(ApiError);
  });

  it('does not retry a 4xx answer', async () => {
    const fetcher = vi.fn(async () => {
      throw new ApiError(404, 'NOT_FOUND', 'Not found', 'No such thing.');
    });
    const store = createFetchStore(fetcher, { staleMs: 60_000 });
    await store.load();

    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(store.getState()).toMatchObject({ isPending: false, isError: true });
  });

  it('is pending again, not failed, while a failed first load is asked again', async () => {
    const { fetcher, pending } = controlledFetcher<string>();
    const store = createFetchStore(fetcher, { staleMs: 60_000 });
    const first = store.load();
    pending[0]!.reject(new ApiError(400, 'BAD', 'Bad', 'Bad request.'));
    await first;
    expect(store.getState()).toMatchObject({ isPending: false, isError: true });

    const retry = store.refresh();
    expect(store.getState()).toMatchObject({ isPending: true, isError: false, error: null });
    pending[1]!.resolve('fine');
    await retry;
    expect(store.getState()).toMatchObject({ data: 'fine', isPending: false, isError: false });
  });

  it('keeps the answer to the newest request when an older one arrives later', async () => {
    const { fetcher, pending } = controlledFetcher<string>();
    const store = createFetchStore(fetcher, { staleMs: 60_000 });
    const older = store.load();
    const newer = store.refresh();
    pending[1]!.resolve('signed out');
    await newer;
    pending[0]!.resolve('signed in');
    await older;

    expect(store.getState().data).toBe('signed out');
  });

  it('shows data set by hand at once (a sign-out) until the next answer', async () => {
    const fetcher = vi.fn(async () => ({ user: 'ada' as string | null }));
    const store = createFetchStore(fetcher, { staleMs: 60_000 });
    await store.load();
    const seen: (string | null | undefined)[] = [];
    const unsubscribe = store.subscribe(() => seen.push(store.getState().data?.user));
    store.setData((old) => (old ? { ...old, user: null } : old));

    expect(seen).toEqual([null]);
    unsubscribe();
  });

  it('refreshes a shown store whose key lies under an invalidated prefix, and leaves the others alone', async () => {
    const featured = vi.fn(async () => ['featured']);
    const other = vi.fn(async () => ['other']);
    const featuredStore = createFetchStore(featured, { staleMs: 60_000, linkedKey: ['products', 'top'] });
    const otherStore = createFetchStore(other, { staleMs: 60_000, linkedKey: ['orders', 'list'] });
    const unsubscribeFeatured = featuredStore.subscribe(() => undefined);
    const unsubscribeOther = otherStore.subscribe(() => undefined);
    await Promise.all([featuredStore.load(), otherStore.load()]);

    invalidateLinkedStores(['products']);
    await featuredStore.load();

    expect(featured).toHaveBeenCalledTimes(2);
    expect(other).toHaveBeenCalledTimes(1);
    unsubscribeFeatured();
    unsubscribeOther();
  });

  it('fetches an invalidated store that nobody shows on its next mount, not before', async () => {
    const fetcher = vi.fn(async () => 'data');
    const store = createFetchStore(fetcher, { staleMs: 60_000, linkedKey: ['products', 'top', 'unshown'] });
    await store.load();

    invalidateLinkedStores(['products', 'top', 'unshown']);
    expect(fetcher).toHaveBeenCalledTimes(1);
    const unsubscribe = store.subscribe(() => undefined);
    expect(fetcher).toHaveBeenCalledTimes(2);
    unsubscribe();
  });
});
