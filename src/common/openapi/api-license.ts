/** package.json's `license` in both OpenAPI documents: the code is proprietary and no license is granted. */
export const API_LICENSE = { name: 'UNLICENSED' } as const;
