import { z } from 'zod';

/** What the SPA reads from /config.json at start-up, so one build serves every environment. */
export const runtimeConfigSchema = z.object({
  apiBaseUrl: z.string(),
  firebase: z.object({
    apiKey: z.string(),
    authDomain: z.string().optional(),
    projectId: z.string(),
  }),
  authEmulatorUrl: z.string().optional(),
  sentry: z.object({ dsn: z.string(), environment: z.string() }).optional(),
  supportContact: z.string(),
});
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;
