/**
 * The built-in brand. The server fills in what the deployment does not set from these, and the web app draws
 * with them until /config.json has arrived; kept free of zod so the first page load can import it.
 */
export const DEFAULT_THEME = {
  productName: 'Parcel Invoice Portal',
  primaryColor: '#1f4e8c',
  headerColor: '#162a4a',
} as const;
