/**
 * uPlot, loaded when the first chart is drawn: it measures the screen as it loads, so it is not imported with
 * the chart's component. Behind an object of its own, so a test without a canvas can stand in for it.
 */
export const uPlotSource = {
  load: () => import('uplot').then((module) => module.default),
};
