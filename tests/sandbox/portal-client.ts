import type { Harness } from './helpers';

/** A test clock the sandbox reads as `now`: tests move time instead of waiting. */
export interface TestClock {
  now: () => number;
  advance(ms: number): void;
}

export function testClock(start = Date.now()): TestClock {
  let t = start;
  return {
    now: () => t,
    advance(ms) {
      t += ms;
    },
  };
}

export interface PageResponse {
  status: number;
  location: string | null;
  text: string;
}

const decodeEntities = (s: string): string =>
  s.replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n))).replace(/&amp;/g, '&');

/** Hidden and text inputs of the first form whose action is `action` (or of the page). */
export function formFields(markup: string, action?: string): Record<string, string> {
  let scope = markup;
  if (action !== undefined) {
    const start = markup.indexOf(`action="${action}"`);
    if (start < 0) throw new Error(`No form posting to ${action}`);
    scope = markup.slice(start, markup.indexOf('</form>', start));
  }
  const out: Record<string, string> = {};
  // Attribute order and line breaks are the formatter's business, so read each tag's attributes.
  for (const m of scope.matchAll(/<input\b([^>]*)>/g)) {
    const attrs = new Map<string, string>();
    for (const a of (m[1] ?? '').matchAll(/([a-z_-]+)="([^"]*)"/g)) attrs.set(a[1] ?? '', a[2] ?? '');
    const name = attrs.get('name');
    if (attrs.get('type') === 'hidden' && name !== undefined)
      out[decodeEntities(name)] = decodeEntities(attrs.get('value') ?? '');
  }
  return out;
}

export function textOf(markup: string, id: string): string | undefined {
  const m = new RegExp(`id="${id}"[^>]*>([^<]*)<`).exec(markup);
  return m ? decodeEntities(m[1] ?? '') : undefined;
}

/** A browser stand-in for portal and consent pages: a cookie jar, no redirects followed. */
export class PortalClient {
  private cookies = new Map<string, string>();
  constructor(private readonly baseUrl: string) {}

  async request(
    method: string,
    pathname: string,
    form?: Record<string, string | string[]>,
  ): Promise<PageResponse> {
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) headers['cookie'] = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: string | undefined;
    if (form) {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(form))
        for (const x of Array.isArray(v) ? v : [v]) params.append(k, x);
      body = params.toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const url = pathname.startsWith('http') ? pathname : this.baseUrl + pathname;
    const res = await fetch(url, { method, headers, body, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = (pair ?? '').indexOf('=');
      const name = (pair ?? '').slice(0, eq);
      const value = (pair ?? '').slice(eq + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: res.status, location: res.headers.get('location'), text: await res.text() };
  }

  get(pathname: string): Promise<PageResponse> {
    return this.request('GET', pathname);
  }

  /** Submits the form posting to `action` found on `page`, with `fields` on top of its hidden ones. */
  async submit(
    pageMarkup: string,
    action: string,
    fields: Record<string, string | string[]> = {},
  ): Promise<PageResponse> {
    return this.request('POST', action, { ...formFields(pageMarkup, action), ...fields });
  }

  async signIn(email: string, password: string, returnTo = '/portal'): Promise<PageResponse> {
    const form = await this.get(`/portal/sign-in?return_to=${encodeURIComponent(returnTo)}`);
    return this.submit(form.text, '/portal/sign-in', { email, password });
  }

  hasSession(): boolean {
    return this.cookies.has('sbx_portal');
  }
}

/** A portal user who owns nothing yet and can reach the harness's entity as a member. */
export function memberUser(
  h: Harness,
  email: string,
  password = 'correct horse battery',
): { id: number; email: string; password: string } {
  const user = h.admin.createUser({ email, name: email.split('@')[0] ?? email });
  h.server.store.accounts.setPassword(user.id, password);
  h.server.store.accounts.addEntityMember(h.entityId, user.id);
  return { id: user.id, email, password };
}

export async function tokenRequest(
  baseUrl: string,
  params: Record<string, string>,
  opts: { inQuery?: boolean; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const query = opts.inQuery ? `?${new URLSearchParams(params).toString()}` : '';
  const res = await fetch(`${baseUrl}/oauth/token${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...opts.headers },
    body: opts.inQuery ? '' : new URLSearchParams(params).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}
