import { useEffect, useState } from 'react';

/** A `blob:` URL for `blob` (null until it exists), revoked when the blob changes or the component unmounts. */
export function useObjectUrl(blob: Blob | undefined): string | null {
  const [current, setCurrent] = useState<{ blob: Blob; url: string } | null>(null);
  useEffect(() => {
    if (!blob) return;
    // Created in the effect, not during render, so Strict Mode's re-run never leaves a revoked URL in use.
    const url = URL.createObjectURL(blob);
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the URL is an outside resource this effect owns
    setCurrent({ blob, url });
    return () => URL.revokeObjectURL(url);
  }, [blob]);
  // Never hand out a URL that belongs to an earlier blob.
  return current && current.blob === blob ? current.url : null;
}
