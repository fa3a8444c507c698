/**
 * What the portal's SCIM service provider says about itself (RFC 7643 §5–7): its configuration, its two
 * resource types and their schemas, listing only the attributes it keeps. The User is the allowlist row: its
 * e-mail address is `userName`; `active` false is a row the directory deactivated; `groups` are its roles.
 */
export const SCIM_CONTENT_TYPE = 'application/scim+json';
export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const LIST_RESPONSE = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const SCIM_ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';
const RESOURCE_TYPE_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
const SERVICE_PROVIDER_CONFIG_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';

/** The most resources one list answer carries (`count` above it is lowered to it). */
export const MAX_RESULTS = 1000;
export const DEFAULT_COUNT = 100;

export function serviceProviderConfig(base: string) {
  return {
    schemas: [SERVICE_PROVIDER_CONFIG_SCHEMA],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: true },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'OAuth Bearer Token',
        description:
          'The SCIM token the portal is configured with (SCIM_TOKEN), sent as "Authorization: Bearer <token>".',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
  };
}

export function resourceTypes(base: string) {
  return [
    {
      schemas: [RESOURCE_TYPE_SCHEMA],
      id: 'User',
      // The name is free (RFC 7643 §6: "e.g."); the endpoint's, as several clients look it up.
      name: 'Users',
      endpoint: '/Users',
      description: 'A person allowed into the portal (the allowlist); userName is their e-mail address.',
      schema: USER_SCHEMA,
      schemaExtensions: [],
      meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/User` },
    },
    {
      schemas: [RESOURCE_TYPE_SCHEMA],
      id: 'Group',
      name: 'Groups',
      endpoint: '/Groups',
      description: "The portal's roles (fixed: their members are set, the groups are not made or deleted).",
      schema: GROUP_SCHEMA,
      schemaExtensions: [],
      meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/Group` },
    },
  ];
}

interface AttributeOptions {
  type?: 'string' | 'boolean' | 'complex' | 'reference' | 'dateTime';
  multiValued?: boolean;
  required?: boolean;
  caseExact?: boolean;
  mutability?: 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
  returned?: 'always' | 'never' | 'default' | 'request';
  uniqueness?: 'none' | 'server' | 'global';
  description: string;
  subAttributes?: ReturnType<typeof attribute>[];
  referenceTypes?: string[];
  canonicalValues?: string[];
}

function attribute(name: string, options: AttributeOptions): Record<string, unknown> {
  return {
    name,
    type: options.type ?? 'string',
    multiValued: options.multiValued ?? false,
    description: options.description,
    required: options.required ?? false,
    caseExact: options.caseExact ?? false,
    mutability: options.mutability ?? 'readWrite',
    returned: options.returned ?? 'default',
    uniqueness: options.uniqueness ?? 'none',
    ...(options.subAttributes ? { subAttributes: options.subAttributes } : {}),
    ...(options.referenceTypes ? { referenceTypes: options.referenceTypes } : {}),
    ...(options.canonicalValues ? { canonicalValues: options.canonicalValues } : {}),
  };
}

const memberAttributes = (referenceType: string) => [
  attribute('value', { description: 'The id of the member.', mutability: 'immutable' }),
  attribute('$ref', {
    type: 'reference',
    referenceTypes: [referenceType],
    description: 'The URI of the member.',
    mutability: 'immutable',
  }),
  attribute('display', { description: 'The e-mail address of the member.', mutability: 'readOnly' }),
  attribute('type', { description: 'The kind of member.', mutability: 'immutable', canonicalValues: ['User'] }),
];

export function schemas(base: string) {
  return [
    {
      schemas: [SCHEMA_SCHEMA],
      id: USER_SCHEMA,
      name: 'User',
      description: 'A person allowed into the portal.',
      attributes: [
        attribute('userName', {
          required: true,
          uniqueness: 'server',
          mutability: 'immutable',
          description:
            "The person's e-mail address: how they sign in, and the portal's key for them. A new address is a new user.",
        }),
        attribute('externalId', {
          caseExact: true,
          description: "The directory's own id for the person, kept as it was sent.",
        }),
        attribute('active', {
          type: 'boolean',
          description: 'False: the directory deactivated the person; they are refused and their sessions end.',
        }),
        attribute('emails', {
          type: 'complex',
          multiValued: true,
          description: 'The e-mail address, as the one work address (the same as userName).',
          subAttributes: [
            attribute('value', { description: 'The address.' }),
            attribute('type', { description: 'Always work.', canonicalValues: ['work'] }),
            attribute('primary', { type: 'boolean', description: 'Always true.' }),
          ],
        }),
        attribute('groups', {
          type: 'complex',
          multiValued: true,
          mutability: 'readOnly',
          description: "The person's roles (set through /Groups).",
          subAttributes: memberAttributes('Group'),
        }),
      ],
      meta: { resourceType: 'Schema', location: `${base}/Schemas/${USER_SCHEMA}` },
    },
    {
      schemas: [SCHEMA_SCHEMA],
      id: GROUP_SCHEMA,
      name: 'Group',
      description: 'A role of the portal.',
      attributes: [
        attribute('displayName', {
          required: true,
          uniqueness: 'server',
          mutability: 'immutable',
          description: 'The name of the role.',
        }),
        attribute('members', {
          type: 'complex',
          multiValued: true,
          description: 'The people who have the role.',
          subAttributes: memberAttributes('User'),
        }),
      ],
      meta: { resourceType: 'Schema', location: `${base}/Schemas/${GROUP_SCHEMA}` },
    },
  ];
}
