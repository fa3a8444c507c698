import { Suspense, useEffect, useState } from 'react';
import { handledWithoutReload } from '@/lib/chunk-reload';
import { lazyWithPreload } from '@/lib/lazy-with-preload';
import type { ErrorModalProps } from './error-modal-props';
import { PlainErrorModal } from './PlainErrorModal';

// Without its code (the network dropped after the page painted), the plain one: an error is never lost to the
// fallback screen because the modal that would say it could not be downloaded.
const BootstrapErrorModal = lazyWithPreload(() => import('./BootstrapErrorModal'), PlainErrorModal);

/**
 * The spec's error modal, the one every screen uses. It shows BootstrapErrorModal, whose code arrives after
 * the page has painted: a screen draws
 * first and shows an error rarely, and the modal's code is most of what a signed-in invoice link would
 * otherwise wait for beyond the screen itself. It is asked for once the screen has painted, so an error
 * still shows at once; from the first error on it stays mounted, to fade out and hand focus back.
 */
export function ErrorModal(props: ErrorModalProps) {
  const [needed, setNeeded] = useState(props.message !== null);
  if (props.message !== null && !needed) setNeeded(true);
  useEffect(() => {
    // After the next paint, so the screen's first paint does not share the network with it. A failed
    // download is asked for again by the render that needs the dialog (and no reload is made for it: the
    // page works without it).
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => BootstrapErrorModal.preload().catch(handledWithoutReload), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <BootstrapErrorModal {...props} />
    </Suspense>
  );
}
