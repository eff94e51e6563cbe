/**
 * The version the client reports in its User-Agent. Kept as a constant (not read from
 * package.json at run time) so the bundle needs no file next to it; a unit test checks that it
 * matches package.json.
 */
export const CLIENT_VERSION = '1.0.0';
