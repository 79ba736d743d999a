import { useEffect, useState } from 'react';
import { LoadError } from '../../../components/load-error.tsx';
import { getVerificationDocument } from '../api/verifications.ts';

/**
 * A submitted document, fetched as a Blob and shown from memory: an image as an <img> (a browser never
 * runs an image), a PDF in a frame sandboxed with no permissions at all, and always a download link.
 * Nothing is opened from our origin, so a hostile file reaches neither the session nor the page.
 */
export function DocumentPreview({ id, name }: { id: string; name: string }) {
  const [state, setState] = useState<{ url: string; type: string } | { error: unknown } | null>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let url: string | null = null;
    let live = true;
    getVerificationDocument(id).then(
      (blob) => {
        url = URL.createObjectURL(blob);
        if (live) setState({ url, type: blob.type });
        else URL.revokeObjectURL(url);
      },
      (error: unknown) => live && setState({ error }),
    );
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [id, attempt]);

  if (state === null) return <span className="loading loading-spinner loading-md" aria-label="Loading the document" />;
  if ('error' in state) return <LoadError error={state.error} onRetry={() => setAttempt((n) => n + 1)} />;
  return (
    <div className="flex flex-col gap-2" data-testid="document-preview">
      {state.type.startsWith('image/') ? (
        <img src={state.url} alt={`Submitted document ${name}`} className="max-h-96 w-full rounded-box bg-base-200 object-contain" />
      ) : (
        <iframe title={`Submitted document ${name}`} src={state.url} sandbox="" className="h-96 w-full rounded-box bg-base-200" />
      )}
      <a href={state.url} download={name} className="link link-primary text-sm">
        Download {name}
      </a>
    </div>
  );
}
