import { useId, useState } from 'react';
import { DOCUMENT_MAX_BYTES, type BusinessProfile } from '@bulkcart/contracts/business';
import { ApiError } from '@/lib/api-client.ts';
import { useUploadDocument } from '@/features/business/api/business.ts';
import { UploadProgress } from '@/components/upload-progress.tsx';

const ACCEPT = 'application/pdf,image/png,image/jpeg,image/webp,.pdf,.png,.jpg,.jpeg,.webp';

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/**
 * The permit upload: checked for size here (the server checks everything again, by the file's bytes),
 * sent with XMLHttpRequest so the bar shows real progress.
 */
export function DocumentUpload({ profile }: { profile: BusinessProfile }) {
  const id = useId();
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const upload = useUploadDocument(setProgress);
  const canUpload = profile.profile !== null;

  function send(file: File | undefined) {
    setProblem(null);
    if (!file) return;
    if (file.size > DOCUMENT_MAX_BYTES) {
      setProblem(`This file is ${sizeText(file.size)}; the limit is 5 MB. Upload a smaller scan or photo of the permit.`);
      return;
    }
    setProgress(0);
    upload.mutate(file, {
      onError: (error) => {
        setProgress(null);
        setProblem(error instanceof ApiError ? error.message : 'The upload failed. Try again.');
      },
    });
  }

  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-3 rounded-box bg-base-100 p-4 ring-1 ring-base-300">
      <h2 id={`${id}-title`} className="text-lg font-bold">
        Permit or license
      </h2>
      {profile.document ? (
        <p className="text-sm break-all" data-testid="document-on-file">
          On file: <span className="font-medium">{profile.document.name}</span> ({sizeText(profile.document.size)}) ·{' '}
          <a className="link link-primary" href="/api/business/document" download>
            Download
          </a>
        </p>
      ) : (
        <p className="text-sm text-base-content/70">No document uploaded yet.</p>
      )}
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-file`} className="text-sm font-medium">
          {profile.document ? 'Replace the document' : 'Upload the document'}
        </label>
        <input
          id={`${id}-file`}
          type="file"
          accept={ACCEPT}
          className="file-input file-input-bordered w-full max-w-md"
          disabled={!canUpload || upload.isPending}
          aria-describedby={`${id}-hint`}
          onChange={(e) => {
            send(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
        <p id={`${id}-hint`} className="text-xs text-base-content/60">
          {canUpload ? 'PDF, PNG, JPEG or WebP, at most 5 MB. A new document is reviewed again.' : 'Save your business details first.'}
        </p>
      </div>
      {progress !== null ? <UploadProgress fraction={progress} isDone={!upload.isPending} /> : null}
      {problem ? (
        <p role="alert" className="text-sm text-error">
          {problem}
        </p>
      ) : null}
    </section>
  );
}
