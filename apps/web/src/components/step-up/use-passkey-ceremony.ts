import { useState } from 'react';
import { ceremonyFailureMessage } from '@/lib/passkeys';

/**
 * A passkey ceremony's waiting state and error, as the set-up card, the confirm card and the prompt over a
 * refused call each show them: `run` clears the last error, waits for the work, and says why it failed.
 */
export function usePasskeyCeremony() {
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  const run = async (work: () => Promise<void>) => {
    setWorking(true);
    setError(null);
    try {
      await work();
    } catch (ceremonyError) {
      setError(ceremonyFailureMessage(ceremonyError));
    } finally {
      setWorking(false);
    }
  };
  return { error, setError, working, run };
}
