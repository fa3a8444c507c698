import { useEffect } from 'react';
import { onFirstInteraction } from '@/lib/first-interaction';

/** Runs `start` once, on the person's first press or key anywhere on the page, while `enabled`. */
export function useOnFirstInteraction(enabled: boolean, start: () => void) {
  useEffect(() => (enabled ? onFirstInteraction(start) : undefined), [enabled, start]);
}
