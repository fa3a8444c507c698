import { Alert } from '@/components/Alert';
import type { ZipState } from '../hooks/use-zip-download';
import { zipDoneText, zipProgressText } from '../messages';

/** The ZIP's progress bar while it streams (striped while its size is unknown), then how it ended. */
export function ZipOutcome({ zip }: { zip: ZipState }) {
  if (zip.kind === 'done') return <Alert variant="success">{zipDoneText(zip.count)}</Alert>;
  if (zip.kind === 'failed') return <Alert variant="danger">{zip.message}</Alert>;
  if (zip.kind !== 'running') return null;
  const { progress } = zip;
  const percent = progress?.expected
    ? Math.min(99, Math.round((100 * progress.received) / progress.expected))
    : undefined;
  return (
    <div className="mb-3">
      <div
        className="progress"
        role="progressbar"
        aria-label="ZIP download"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <div
          className={`progress-bar${percent === undefined ? ' progress-bar-striped progress-bar-animated' : ''}`}
          style={{ width: `${percent ?? 100}%` }}
        />
      </div>
      <p className="small mt-1 mb-0" aria-live="polite">
        {progress ? zipProgressText(progress.received, progress.expected, progress.count) : 'Preparing the ZIP…'}
      </p>
    </div>
  );
}
