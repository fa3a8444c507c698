/**
 * The one way the portal writes a moment: British order, 24-hour clock, the month as a word so no reader
 * takes 03/04 for 4 March ("23 Nov 2026, 15:16"); a day alone drops the time ("23 Nov 2026"). In the
 * reader's own time zone.
 */
const dateTime = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const dateOnly = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

export const formatDateTime = (at: string | Date): string => dateTime.format(new Date(at));
export const formatDate = (at: string | Date): string => dateOnly.format(new Date(at));
