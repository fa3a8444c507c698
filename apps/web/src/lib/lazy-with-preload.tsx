import { lazy, useState, type ComponentType } from 'react';

/**
 * `React.lazy` whose code can be asked for before anything renders it: the loader runs once, for whoever
 * asks first. React.lazy suspends on its first render even when the code has arrived, and React then holds
 * the reveal back for up to 300 ms (its throttle on Suspense fallbacks): a signed-in invoice link lost that
 * much before its first API call. This component renders the loaded code directly instead.
 */
export function lazyWithPreload<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  let loaded: ComponentType<P> | undefined;
  let started: Promise<{ default: ComponentType<P> }> | undefined;
  const preload = () =>
    (started ??= load().then((module) => {
      loaded = module.default;
      return module;
    }));
  const Lazy = lazy(preload);
  function Preloadable(props: P) {
    // Chosen once per mount: switching from one to the other would remount everything inside.
    const [Component] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return <Component {...props} />;
  }
  return Object.assign(Preloadable, { preload });
}
