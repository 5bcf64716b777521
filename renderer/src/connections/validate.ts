/**
 * The add-connection form's checks, as main applies them (electron/auth/connections.ts), so the user
 * sees which field is wrong before anything is sent. Main checks again: this is only for the form.
 */
export interface ConnectionDraft {
  name: string;
  baseUrl: string;
  /** Empty: the same as baseUrl (the local sandbox and self-hosted services serve all three). */
  portalUrl: string;
  authUrl: string;
}

export type DraftErrors = Partial<Record<keyof ConnectionDraft, string>>;

export interface CheckedConnection {
  name: string;
  baseUrl: string;
  portalUrl: string;
  authUrl: string;
}

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function checkServiceUrl(value: string): { url?: string; error?: string } {
  const text = value.trim();
  if (!text) return { error: 'Enter the address, e.g. https://api.example.com' };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { error: 'Not a web address: start with https://' };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopbackHosts.has(url.hostname))) {
    return { error: 'Use an https:// address (http:// only for this computer)' };
  }
  if (url.username || url.password || url.search || url.hash) {
    return { error: 'The address must not carry a user name, password, ?query or #fragment' };
  }
  return { url: url.href.replace(/\/+$/, '') };
}

export function validateConnection(draft: ConnectionDraft): {
  value?: CheckedConnection;
  errors: DraftErrors;
} {
  const errors: DraftErrors = {};
  const name = draft.name.trim();
  if (!name) errors.name = 'Give the connection a name.';
  else if (name.length > 80) errors.name = 'Keep the name to 80 characters.';
  const base = checkServiceUrl(draft.baseUrl);
  if (base.error) errors.baseUrl = base.error;
  const optional = (key: 'portalUrl' | 'authUrl'): string | undefined => {
    if (!draft[key].trim()) return base.url;
    const checked = checkServiceUrl(draft[key]);
    if (checked.error) errors[key] = checked.error;
    return checked.url;
  };
  const portalUrl = optional('portalUrl');
  const authUrl = optional('authUrl');
  if (Object.keys(errors).length > 0 || !base.url || !portalUrl || !authUrl) return { errors };
  return { value: { name, baseUrl: base.url, portalUrl, authUrl }, errors };
}
