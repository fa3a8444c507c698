/**
 * Every component module of the app, screens and modals the app loads on demand included. Their first import
 * transforms and evaluates hundreds of modules (react-bootstrap, TanStack Query, the admin screen's parts):
 * seconds, and more than 10 s on a 2-core machine busy with lint and the type check beside this suite. Done
 * inside a test or a hook, that import ran against a time limit meant for the test's own work; render-app.tsx
 * does it while a file that renders the app is collected, where nothing is timed. Files in a worker share
 * their modules (`isolate: false`), so each worker pays once.
 *
 * A glob, not a list: a screen loaded lazily tomorrow is included without anyone remembering to add it.
 * main.tsx is left out because importing it starts the app.
 */
const componentModules = import.meta.glob(['../**/*.tsx', '!../**/*.test.tsx', '!../main.tsx']);

export async function loadAppCode(): Promise<void> {
  await Promise.all(Object.values(componentModules).map((load) => load()));
}
