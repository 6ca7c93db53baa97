// A thread chosen in the list, brought into view. On a phone the list is folded below the answer,
// so the page stayed scrolled at the list and the opened thread was off screen; on a wide screen
// the list is beside the answer and the page is left where it is.

/** The narrowest viewport whose side panels are shown open beside the answer (below it, a phone's folded drawers). */
export const WIDE_MIN_PX = 901;

export function showOpenedAnswer(): void {
  if (typeof matchMedia === 'function' && matchMedia(`(min-width: ${WIDE_MIN_PX}px)`).matches) return;
  // After the opened thread is rendered: the store's change renders before the next frame.
  requestAnimationFrame(() => {
    document.querySelector('[data-testid=turn].viewed')?.scrollIntoView({ block: 'start' });
  });
}
