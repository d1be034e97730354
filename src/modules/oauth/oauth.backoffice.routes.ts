import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { one } from '../../shared/envelopes.js';
import { backofficeResource } from '../../shared/http/resource.js';
import { route } from '../../shared/http/route.js';
import { dataOf, isoTimestamp, uuid } from '../../shared/schemas.js';
import { iso, isoOrNull } from '../../shared/time.js';
import type { ClientsService } from './clients.service.js';
import { toOAuthClient, toOAuthProvider } from './oauth.mappers.js';
import {
  createdOAuthClientSchema,
  oauthClientCreateBody,
  oauthClientSchema,
  oauthProviderCreateBody,
  oauthProviderSchema,
} from './oauth.schemas.js';
import { oauthTags } from './oauth.tags.js';
import type { ProvidersService } from './providers.service.js';
import type { SigningKeysService } from './signing-keys.service.js';
import { providerAggregate } from './oauth.repository.js';

const signingKeySchema = z
  .object({
    kid: uuid,
    alg: z.string(),
    active: z.boolean().describe('Signs new tokens'),
    retire_at: isoTimestamp.nullable().describe('When it leaves the JWKS; null while it is the signer'),
    inserted_at: isoTimestamp,
  })
  .meta({ id: 'SigningKey' });

const signingKeysBody = z.object({ data: z.array(signingKeySchema) });

const toSigningKey = (row: { id: string; alg: string; retireAt: Date | null; insertedAt: Date }, index: number) => ({
  kid: row.id,
  alg: row.alg,
  active: index === 0,
  retire_at: isoOrNull(row.retireAt),
  inserted_at: iso(row.insertedAt),
});

export interface OAuthBackofficeDeps {
  clients: ClientsService;
  providers: ProvidersService;
  keys: SigningKeysService;
}

/** /core/v2/oauth: the media's OAuth clients, identity providers and token signing keys. */
export const oauthBackofficeRoutes: FastifyPluginAsyncZod<{ oauth: OAuthBackofficeDeps }> = async (app, { oauth }) => {
  const { clients, providers, keys } = oauth;

  const clientRoutes = backofficeResource(app, {
    path: '/clients',
    kind: 'client',
    names: { one: 'OAuthClient', many: 'OAuthClients' },
    tag: oauthTags.clients,
    item: oauthClientSchema,
    map: toOAuthClient,
    read: 'admin:read',
    write: 'admin:write',
  });
  clientRoutes.list({ summary: 'List OAuth clients' }, clients.list);

  // Create answers the client secret once, beside the record: not the standard create.
  route(app, {
    method: 'POST',
    url: '/clients',
    operationId: 'createOAuthClient',
    record: { kind: 'client' },
    summary: 'Register an OAuth client',
    description: 'data.id is the client_id; data.secret is the client_secret, shown only here (stored as a hash).',
    tag: oauthTags.clients,
    access: { permission: 'admin:write' },
    body: oauthClientCreateBody,
    response: { 201: dataOf(createdOAuthClientSchema) },
    // The answer carries a secret shown once: a stored replay would keep it at rest (only its hash is kept).
    idempotent: false,
    handler: async (ctx, { body }) => {
      const { row, secret } = await clients.create(ctx, body);
      return one({ ...toOAuthClient(row), secret });
    },
  });

  clientRoutes.get({ summary: 'OAuth client by id' }, clients.get);
  clientRoutes.remove(
    {
      summary: 'Revoke an OAuth client',
      description: 'Its access tokens are refused from then on and its refresh tokens are revoked.',
    },
    clients.revoke,
  );

  const providerRoutes = backofficeResource(app, {
    path: '/providers',
    kind: 'provider',
    lock: providerAggregate,
    names: { one: 'OAuthProvider', many: 'OAuthProviders' },
    tag: oauthTags.providers,
    item: oauthProviderSchema,
    map: toOAuthProvider,
    read: 'admin:read',
    write: 'admin:write',
  });
  providerRoutes.list({ summary: 'List identity providers', description: 'client_secret is never shown.' }, providers.list);
  providerRoutes.create(
    { summary: 'Register an identity provider', body: oauthProviderCreateBody, errors: [409] },
    providers.create,
  );
  providerRoutes.get({ summary: 'Identity provider by id' }, providers.get);
  providerRoutes.remove(
    { summary: 'Remove an identity provider', description: 'Its tokens are refused from then on.' },
    providers.remove,
  );

  route(app, {
    method: 'GET',
    url: '/signing-keys',
    operationId: 'listOAuthSigningKeys',
    summary: 'Live token signing keys',
    description: 'The keys in the JWKS, newest (the signer) first. Private parts are never shown.',
    tag: oauthTags.signingKeys,
    access: { permission: 'admin:read' },
    response: { 200: signingKeysBody },
    handler: async (ctx) => ({ data: (await keys.list(ctx)).map(toSigningKey) }),
  });

  route(app, {
    method: 'POST',
    url: '/signing-keys/rotate',
    operationId: 'rotateOAuthSigningKey',
    record: { kind: 'rotate' },
    summary: 'Rotate the token signing key',
    description:
      'A new key signs from now on. Older keys stay in the JWKS and keep verifying until the tokens they signed have expired.',
    tag: oauthTags.signingKeys,
    access: { permission: 'admin:write' },
    response: { 200: signingKeysBody },
    handler: async (ctx) => ({ data: (await keys.rotate(ctx)).map(toSigningKey) }),
  });
};
