import { useEffect, useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { CATALOG_CSV_REQUIRED_COLUMNS, CATALOG_IMPORT_LIMITS, type CatalogImport } from '@bulkcart/contracts/catalog-import';
import { paths } from '@bulkcart/contracts/routes';
import { ConfirmDialog } from '@/components/confirm-dialog.tsx';
import { LoadError } from '@/components/load-error.tsx';
import { notify } from '@/components/notice.tsx';
import { Spinner } from '@/components/spinner.tsx';
import { UploadProgress } from '@/components/upload-progress.tsx';
import { ApiError } from '@/lib/api-client.ts';
import { Link, useSearchParams } from '@/lib/router.tsx';
import { useApplyImport, useCatalogImport, useCatalogImports, useUndoImport, useUploadCatalog } from '@/features/catalog/api/catalog-imports.ts';
import { ChangesTable } from '@/features/catalog/components/changes-table.tsx';
import { ImportHistory } from '@/features/catalog/components/import-history.tsx';
import { JobProgress } from '@/features/catalog/components/job-progress.tsx';

const MAX_MB = CATALOG_IMPORT_LIMITS.maxBytes / 1024 / 1024;

/** What is wrong with a chosen file before it is sent, in words a seller acts on; the server checks everything again. */
function refuseFile(file: File): string | null {
  if (!/\.csv$/i.test(file.name) && file.type !== 'text/csv') {
    return `"${file.name}" is not a CSV file. In your spreadsheet choose File → Save as → "CSV UTF-8", then upload that file.`;
  }
  if (file.size === 0) return `"${file.name}" is empty. Upload a CSV file with a header row and one product a row.`;
  if (file.size > CATALOG_IMPORT_LIMITS.maxBytes) {
    return `"${file.name}" is ${(file.size / 1024 / 1024).toFixed(1)} MB; the limit is ${MAX_MB} MB. Split it into smaller files.`;
  }
  return null;
}

/**
 * The catalog import (docs/product/catalog-csv.md): pick or drop a CSV, watch it being checked, review
 * what will change, apply, and undo. The job's id is in the URL, so a reload comes back to it.
 */
export function CatalogImportPage() {
  const [params, setParams] = useSearchParams();
  const jobId = params.get('job');
  return (
    <section className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold md:text-3xl">Import products from CSV</h1>
        <div className="flex flex-wrap gap-2">
          <a className="btn btn-outline btn-sm" href="/api/my/catalog.csv" download>
            Download CSV
          </a>
          <Link to={paths.myProducts} className="btn btn-ghost btn-sm">
            Back to My Product
          </Link>
        </div>
      </div>
      {jobId ? <JobView key={jobId} id={jobId} onStartOver={() => setParams({})} /> : <Uploader onUploaded={(id) => setParams({ job: id })} />}
      <ImportHistory currentId={jobId} />
    </section>
  );
}

function Uploader({ onUploaded }: { onUploaded: (id: string) => void }) {
  const id = useId();
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [isOver, setIsOver] = useState(false);
  const upload = useUploadCatalog(setProgress);
  // Shows a running job of the seller's own instead of a refusal when they upload again.
  const history = useCatalogImports();
  const running = history.data?.find((job) => job.status === 'validating' || job.status === 'applying');

  function send(file: File | undefined) {
    setProblem(null);
    if (!file) return;
    const refusal = refuseFile(file);
    if (refusal) {
      setProblem(refusal);
      return;
    }
    setProgress(0);
    upload.mutate(file, {
      onSuccess: (created) => onUploaded(created.id),
      onError: (error) => {
        setProgress(null);
        setProblem(error instanceof ApiError ? error.message : 'The upload failed. Try again.');
      },
    });
  }

  return (
    <div className="flex flex-col gap-4 rounded-box bg-base-100 p-4 ring-1 ring-base-300">
      <p className="text-sm">
        One product a row, matched to your products by <strong>sku</strong>. Nothing changes until you have reviewed the changes and pressed Apply. Start from{' '}
        <a className="link link-primary" href="/api/my/catalog.csv" download>
          your current catalog as CSV
        </a>
        . Required columns: {CATALOG_CSV_REQUIRED_COLUMNS.join(', ')}. At most {MAX_MB} MB and {CATALOG_IMPORT_LIMITS.maxRows.toLocaleString('en-US')} rows.
      </p>
      {running ? (
        <p className="rounded-box bg-info/15 px-3 py-2 text-sm">
          An import of yours is still running.{' '}
          <Link className="link link-primary" to={`${paths.catalogImport}?job=${running.id}`}>
            Open it
          </Link>
        </p>
      ) : null}
      <label
        htmlFor={`${id}-file`}
        data-testid="drop-zone"
        className={`flex cursor-pointer flex-col items-center gap-2 rounded-box border-2 border-dashed p-8 text-center ${isOver ? 'border-primary bg-primary/10' : 'border-base-300'}`}
        onDragOver={(e) => {
          e.preventDefault();
          setIsOver(true);
        }}
        onDragLeave={() => setIsOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setIsOver(false);
          send(e.dataTransfer.files[0]);
        }}
      >
        <span className="font-semibold">Drop a CSV file here, or choose one</span>
        <span className="text-xs text-base-content/70">Comma or semicolon separated, UTF-8</span>
      </label>
      <input
        id={`${id}-file`}
        type="file"
        accept=".csv,text/csv"
        aria-label="Choose a CSV file"
        className="file-input file-input-bordered w-full max-w-md"
        disabled={upload.isPending}
        onChange={(e) => {
          send(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
      {progress !== null ? <UploadProgress fraction={progress} isDone={upload.isSuccess} /> : null}
      {problem ? (
        <p role="alert" className="text-sm text-error">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

function Summary({ job }: { job: CatalogImport }) {
  const cells: Array<[string, number, string]> = [
    ['New products', job.summary.create, 'create'],
    ['Updates', job.summary.update, 'update'],
    ['Unchanged', job.summary.unchanged, 'unchanged'],
    ['Rows with errors', job.summary.invalid, 'invalid'],
  ];
  return (
    <dl className="grid grid-cols-2 gap-2 md:grid-cols-4" data-testid="import-summary">
      {cells.map(([label, count, key]) => (
        <div key={key} className={`rounded-box p-3 ring-1 ring-base-300 ${key === 'invalid' && count > 0 ? 'bg-error/10' : 'bg-base-100'}`}>
          <dt className="text-sm text-base-content/70">{label}</dt>
          <dd className="text-2xl font-bold tabular-nums" data-testid={`count-${key}`}>
            {count.toLocaleString('en-US')}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function ErrorsTable({ job }: { job: CatalogImport }) {
  if (job.summary.invalid === 0) return null;
  return (
    <section aria-labelledby="import-errors" className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="import-errors" className="text-lg font-bold">
          Rows with errors {job.errors.length < job.summary.invalid ? `(the first ${job.errors.length} errors)` : ''}
        </h2>
        <a className="btn btn-outline btn-sm" href={`/api/catalog-imports/${job.id}/errors.csv`} download>
          Download all errors (CSV)
        </a>
      </div>
      <p className="text-sm text-base-content/70">These rows are left out. Fix them in the downloaded file and upload it again.</p>
      <div className="overflow-x-auto">
        <table className="table table-sm" data-testid="errors-table">
          <thead>
            <tr>
              <th scope="col">Row</th>
              <th scope="col">Column</th>
              <th scope="col">Problem</th>
            </tr>
          </thead>
          <tbody>
            {job.errors.map((e, i) => (
              <tr key={`${e.row}-${e.column}-${i}`}>
                <td className="tabular-nums">{e.row}</td>
                <td>{e.column}</td>
                <td className="break-words">{e.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function JobView({ id, onStartOver }: { id: string; onStartOver: () => void }) {
  const job = useCatalogImport(id);
  const apply = useApplyImport(id);
  const undo = useUndoImport(id);
  const queryClient = useQueryClient();
  const [confirm, setConfirm] = useState<'apply' | 'undo' | null>(null);
  const status = job.data?.status;

  useEffect(() => {
    // The catalog lists (all products, My Product, details) show what the apply wrote.
    if (status === 'applied') void queryClient.invalidateQueries({ queryKey: ['products'] });
    if (status && status !== 'validating' && status !== 'applying') void queryClient.invalidateQueries({ queryKey: ['catalog-imports'], exact: true });
  }, [status, queryClient]);

  if (job.isPending) return <Spinner label="Loading the import" />;
  if (job.isError) return <LoadError error={job.error} onRetry={() => void job.refetch()} />;
  const data = job.data;
  const changeCount = data.summary.create + data.summary.update;

  function runApply() {
    apply.mutate(undefined, {
      onSuccess: () => setConfirm(null),
      onError: (error) => {
        setConfirm(null);
        notify({ kind: 'error', title: 'Not applied', text: error.message });
      },
    });
  }
  function runUndo() {
    undo.mutate(undefined, {
      onSuccess: (result) => {
        setConfirm(null);
        const parts = [`${result.restored} restored`, `${result.removed} removed`];
        if (result.unlisted > 0) parts.push(`${result.unlisted} unlisted because they have been ordered (see My Product)`);
        notify({ kind: 'success', text: `Import undone: ${parts.join(', ')}.` });
      },
      onError: (error) => {
        setConfirm(null);
        notify({ kind: 'error', title: 'Not undone', text: error.message });
      },
    });
  }

  return (
    <div className="flex flex-col gap-4 rounded-box bg-base-100 p-4 ring-1 ring-base-300" data-testid="import-job" data-status={data.status}>
      <p className="text-sm break-all">
        File <strong>{data.fileName}</strong>
      </p>
      {data.status === 'validating' ? <JobProgress label="Checking your file" progress={data.progress} /> : null}
      {data.status === 'applying' ? <JobProgress label="Writing the changes" progress={data.progress} /> : null}
      {data.status === 'failed' ? (
        <div role="alert" className="rounded-box bg-error/10 p-3">
          <p className="font-semibold">This file could not be imported.</p>
          <p className="text-sm" data-testid="import-reason">
            {data.reason}
          </p>
        </div>
      ) : null}
      {data.status === 'ready' || data.status === 'applied' || data.status === 'undone' ? <Summary job={data} /> : null}
      {data.status === 'ready' ? (
        <>
          <ErrorsTable job={data} />
          <ChangesTable id={data.id} count={changeCount} />
          <div className="flex flex-wrap gap-2">
            <button type="button" className="btn btn-primary" disabled={changeCount === 0} onClick={() => setConfirm('apply')}>
              Apply {changeCount.toLocaleString('en-US')} {changeCount === 1 ? 'change' : 'changes'}
            </button>
            <button type="button" className="btn btn-ghost" onClick={onStartOver}>
              Upload another file
            </button>
          </div>
          {changeCount === 0 ? <p className="text-sm">Nothing in this file changes your catalog.</p> : null}
        </>
      ) : null}
      {data.status === 'applied' ? (
        <div className="flex flex-col gap-2" role="status">
          <p className="font-semibold" data-testid="import-result">
            Applied: {data.summary.create.toLocaleString('en-US')} created, {data.summary.update.toLocaleString('en-US')} updated. Unchanged rows and rows with
            errors were not touched.
          </p>
          <div className="flex flex-wrap gap-2">
            {data.canUndo ? (
              <button type="button" className="btn btn-outline btn-error" onClick={() => setConfirm('undo')}>
                Undo this import
              </button>
            ) : (
              <p className="text-sm text-base-content/70">Only your latest import can be undone, within 24 hours of applying it.</p>
            )}
            <Link to={paths.myProducts} className="btn btn-ghost">
              See My Product
            </Link>
            <button type="button" className="btn btn-ghost" onClick={onStartOver}>
              Import another file
            </button>
          </div>
        </div>
      ) : null}
      {data.status === 'undone' || data.status === 'failed' ? (
        <div className="flex flex-col gap-2">
          {data.status === 'undone' ? (
            <p className="font-semibold" role="status" data-testid="import-result">
              This import was undone: your catalog is back as it was before it.
            </p>
          ) : null}
          <button type="button" className="btn btn-primary w-fit" onClick={onStartOver}>
            Upload another file
          </button>
        </div>
      ) : null}
      <ConfirmDialog
        open={confirm === 'apply'}
        title={`Apply ${changeCount.toLocaleString('en-US')} ${changeCount === 1 ? 'change' : 'changes'} to your catalog?`}
        confirmLabel="Apply"
        isPending={apply.isPending}
        onConfirm={runApply}
        onCancel={() => setConfirm(null)}
      >
        <p>
          {data.summary.create.toLocaleString('en-US')} new products and {data.summary.update.toLocaleString('en-US')} updates. You can undo this import within
          24 hours.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === 'undo'}
        title="Undo this import?"
        confirmLabel="Undo import"
        isPending={undo.isPending}
        onConfirm={runUndo}
        onCancel={() => setConfirm(null)}
      >
        <p>
          Updated products go back to how they were before it; products it created are removed (those already ordered are unlisted instead: kept for their
          orders, hidden from buyers, and listed again from My Product).
        </p>
      </ConfirmDialog>
    </div>
  );
}
