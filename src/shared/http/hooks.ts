/** A route option's hooks as a list (Fastify takes one hook or an array), to append one of one's own. */
export const hookList = <T>(hook: T | T[] | undefined): T[] => (hook === undefined ? [] : Array.isArray(hook) ? hook : [hook]);
