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
  /** Single sign-on: the login screen adds "Sign in with <label>" through this OIDC or SAML provider. */
  sso: z.object({ providerId: z.string().regex(/^(oidc|saml)\./), label: z.string() }).optional(),
  /** Error reporting; `release` names the build (GET /api/version), so events match their source maps. */
  sentry: z.object({ dsn: z.string(), environment: z.string(), release: z.string() }).optional(),
  supportContact: z.string(),
  /** "Tell me when it arrives" is offered: the operator configured an SMTP relay (SMTP_URL). */
  arrivalNotices: z.boolean().optional(),
  /** Where "Please contact …" leads: shown as mailto:/tel: links beside the message. */
  support: z.object({ email: z.string().optional(), phone: z.string().optional() }).optional(),
  /** The deployment's brand; the web app has the same defaults built in. */
  theme: z
    .object({
      productName: z.string(),
      primaryColor: z.string(),
      headerColor: z.string(),
      logoUrl: z.string().optional(),
    })
    .optional(),
});
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;
