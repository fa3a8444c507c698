/** The roles a company directory can give through its Groups: read by config.ts and scim/roles.ts alike. */
export const SCIM_ROLE_NAMES = ['admin', 'finance'] as const;

export type ScimRoleName = (typeof SCIM_ROLE_NAMES)[number];
