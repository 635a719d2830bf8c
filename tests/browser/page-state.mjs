// What the page tells tests and the benchmark about its analyses (web/src/page/main.js): a count of
// reports drawn (body[data-analysed]), whether none is waiting or running (body[data-settled]), and
// whether the CodeMirror bundle has taken the panes over (body[data-editor]).

/** The number of reports the page has drawn so far. */
export const analysedCount = async (page) => Number(await page.locator('body').getAttribute('data-analysed')) || 0;

/**
 * Waits until a report after the `before`-th is on screen and no analysis is waiting or running, so the
 * results are those of the input as it stands (a bare count would let an older analysis pass).
 */
export const settledAfter = (page, before, timeout = 15000) =>
  page.waitForFunction(
    (n) => Number(document.body.dataset.analysed) > n && document.body.dataset.settled === 'true',
    before,
    { timeout },
  );

/** Waits for the page's start-up report (a verdict on screen) with nothing further waiting or running. */
export const firstAnalysis = (page, timeout = 15000) =>
  page.waitForSelector('body[data-settled="true"] .results .verdict', { timeout });

/** Waits until the editor bundle, imported after the first verdict, has replaced the plain panes. */
export const editorReady = (page, timeout = 15000) => page.waitForSelector('body[data-editor="ready"]', { timeout });

/** The permalink once the page has written it into #share-link (sharing compresses asynchronously). */
export async function sharedLink(page, timeout = 15000) {
  await page.waitForFunction(() => {
    const field = document.getElementById('share-link');
    return !field.hidden && field.value !== '';
  }, null, { timeout });
  return page.locator('#share-link').inputValue();
}
