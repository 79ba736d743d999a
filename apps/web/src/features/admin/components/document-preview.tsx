import { useState } from 'react';
import type { DocumentType } from '@bulkcart/contracts/business';
import { documentUrls } from '@/features/admin/api/verifications.ts';

/**
 * A submitted document, shown in the page from the server's preview answer (docs/decisions/016): an
 * image as an <img> (a browser never runs an image), a PDF in a frame of our own origin whose answer
 * carries `Content-Security-Policy: sandbox` (no script, an opaque origin; Chromium shows no PDF in a
 * frame sandboxed by its attribute), and always the download beside it. The page's own CSP needs no
 * exception: both come from 'self'.
 */
export function DocumentPreview({ id, name, type }: { id: string; name: string; type: DocumentType }) {
  const urls = documentUrls(id);
  const [failed, setFailed] = useState(false);
  return (
    <div className="flex flex-col gap-2" data-testid="document-preview">
      {failed ? (
        <p role="alert" className="text-sm text-error">
          The document could not be shown. Download it instead.
        </p>
      ) : type.startsWith('image/') ? (
        <img
          src={urls.preview}
          alt={`Submitted document ${name}`}
          className="max-h-96 w-full rounded-box bg-base-200 object-contain"
          onError={() => setFailed(true)}
        />
      ) : (
        <iframe title={`Submitted document ${name}`} src={urls.preview} className="h-96 w-full rounded-box bg-base-200" />
      )}
      <a href={urls.download} download={name} className="link link-primary text-sm">
        Download {name}
      </a>
    </div>
  );
}
