// Every table of every module, for drizzle-kit and for the typed client.
export * from './service-secrets.table.js';
export * from '../modules/core/tenancy/tenancy.table.js';
export * from '../modules/core/api-keys/api-keys.table.js';
export * from '../modules/core/categories/categories.table.js';
export * from '../modules/core/references/references.table.js';
export * from '../modules/oauth/oauth.table.js';
export * from '../modules/community/profile-types/profile-types.table.js';
export * from '../modules/publisher/topics/topics.table.js';
export * from '../modules/readerhub/accounts/accounts.table.js';
export * from '../modules/readerhub/devices/devices.table.js';
export * from '../modules/readerhub/entitlements/entitlements.table.js';
export * from '../modules/readerhub/invitations/invitations.table.js';
export * from '../modules/readerhub/favorites/favorites.table.js';
export * from '../modules/readerhub/topic-subscriptions/topic-subscriptions.table.js';
