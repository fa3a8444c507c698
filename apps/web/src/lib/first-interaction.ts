/**
 * What counts as a person starting to use the page: a press (mouse, pen, finger) or a key. Not focus (the
 * login form's autofocus is not the person's) and not pointer movement (a page merely looked at stays idle).
 */
const FIRST_INTERACTION_EVENTS = ['pointerdown', 'keydown', 'touchstart'] as const;

/**
 * Runs `start` once, on the person's first press or key anywhere on the page. For code the page may need next
 * but must not pay for before anyone uses it: a page only looked at downloads nothing more. Returns a function
 * that stops waiting.
 */
export function onFirstInteraction(start: () => void): () => void {
  const options = { capture: true, passive: true } as const;
  const stop = () => {
    for (const type of FIRST_INTERACTION_EVENTS) window.removeEventListener(type, onInteraction, options);
  };
  function onInteraction() {
    stop();
    start();
  }
  for (const type of FIRST_INTERACTION_EVENTS) window.addEventListener(type, onInteraction, options);
  return stop;
}
