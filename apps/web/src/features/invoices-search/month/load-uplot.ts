/**
 * uPlot, loaded when the first chart is drawn: it measures the screen as it loads, so it is not imported with
 * the chart's component. Its own module, so a test without a canvas can stand in for it.
 */
export const loadUPlot = () => import('uplot').then((module) => module.default);
