/** Where the notices plugin's API is served. */
export const NOTICES_API_PREFIX = '/api/plugins/notices/';
