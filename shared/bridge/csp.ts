/**
 * The renderer's Content Security Policy, one string for every host. Scripts only from the app
 * itself; AG Grid injects its theme as <style> elements at run time, so styles allow inline.
 * connect-src 'self' is what the browser host's bridge needs (its socket and event stream, same
 * origin); under Electron the page is a file:// document with no network use of its own.
 */
export const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');
