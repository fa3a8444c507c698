import { loadAppCode } from './load-app-code';

// While a file that renders the app is collected, before any of its tests runs: no test, hook or wait pays
// for a first import of the code the app loads on demand (see loadAppCode). Files that render no app do not
// import this module and pay nothing.
await loadAppCode();

export * from './render-app-cold';
