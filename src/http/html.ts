/**
 * The headers of every HTML page the service serves: it loads only from its own origin (no CDN: the
 * pages work offline), connects only where `connect` says, and no other site may frame it.
 */
export function htmlHeaders(connect: string[] = []): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': [
      "default-src 'self'",
      "script-src 'self'",
      // The pages style themselves inline (one <style>; the API viewer sets style attributes).
      "style-src 'self' 'unsafe-inline'",
      "font-src 'self' data:",
      "img-src 'self' data: https:",
      `connect-src ${["'self'", ...connect].join(' ')}`,
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
    'x-frame-options': 'DENY',
  }
}
