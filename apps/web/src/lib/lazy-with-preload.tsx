import { lazy, useState, type ComponentType } from 'react';
import { handledWithoutReload } from './chunk-reload';

/**
 * `React.lazy` whose code can be asked for before anything renders it: the loader runs once, for whoever
 * asks first. React.lazy suspends on its first render even when the code has arrived, and React then holds
 * the reveal back for up to 300 ms (its throttle on Suspense fallbacks): a signed-in invoice link lost that
 * much before its first API call. This component renders the loaded code directly instead.
 *
 * A load that failed is forgotten, so the render that needs the code asks again (a preload that met a dropped
 * network is not the last word). With a `standIn`, a render whose code cannot be had shows the stand-in, for
 * the rest of the page's life, instead of failing into the error boundary; the app does not reload for it.
 */
export function lazyWithPreload<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  standIn?: ComponentType<P>,
) {
  let loaded: ComponentType<P> | undefined;
  let started: Promise<{ default: ComponentType<P> }> | undefined;
  const preload = () =>
    (started ??= load().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        started = undefined;
        throw error;
      },
    ));
  const Lazy = lazy(
    standIn
      ? () =>
          preload().catch((error: unknown) => {
            handledWithoutReload(error);
            return { default: standIn };
          })
      : preload,
  );
  function Preloadable(props: P) {
    // Chosen once per mount: switching from one to the other would remount everything inside.
    const [Component] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return <Component {...props} />;
  }
  return Object.assign(Preloadable, { preload });
}
