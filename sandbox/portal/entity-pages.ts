import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { countryNameByCode } from '../../shared/domain/countries';
import type { SandboxContext } from '../context';
import { AdminError, type EntityResource } from '../store/admin';
import { html, type SafeHtml } from './html';
import { csrfField, page, sendPage } from './layout';
import { idParams, parseForm } from './forms';
import { checkCsrf, currentSession, redirectToSignIn, type SignedIn } from './session';

const newEntityForm = z.object({
  csrf_token: z.string().optional(),
  name: z.string().trim().min(1).max(255),
  manager: z.string().trim().max(255).default(''),
  hq_country_code: z.string().trim().toUpperCase().default(''),
  address: z.string().trim().max(255).default(''),
  currency: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/)
    .default('EUR'),
  area_units_name: z.enum(['square metres', 'square feet']).default('square metres'),
  reporting_period_month: z.coerce.number().int().min(1).max(12).default(12),
});
const accessForm = z.object({
  csrf_token: z.string().optional(),
  data_partner_id: z.coerce.number().int().positive(),
  action: z.enum(['grant', 'revoke']),
});

function entityTabs(entity: EntityResource, active: 'overview' | 'access', signedIn: SignedIn): SafeHtml {
  const tab = (href: string, key: string, label: string): SafeHtml =>
    html`<a href="${href}" class="${active === key ? 'active' : ''}">${label}</a>`;
  const partner = signedIn.user.data_partner_id;
  return html`<p class="tabs">
    ${tab(`/portal/entities/${entity.id}`, 'overview', 'Overview')}
    ${tab(`/portal/entities/${entity.id}/access`, 'access', 'Data Partner Access Rights')}
    ${
      partner !== null
        ? html`<a href="/portal/view/entities/${entity.id}/assets">View-only: assets</a>
            <a href="/portal/view/entities/${entity.id}/responses">View-only: portfolio responses</a>`
        : ''
    }
  </p>`;
}

export function registerEntityPages(app: FastifyInstance, ctx: SandboxContext): void {
  const { admin, accounts } = ctx.store;

  const entityFor = (signedIn: SignedIn, raw: unknown): EntityResource | undefined => {
    const parsed = idParams.safeParse(raw);
    if (!parsed.success || !accounts.userCanAccessEntity(signedIn.user.id, parsed.data.id)) return undefined;
    return admin.getEntity(parsed.data.id);
  };
  const notFoundPage = (reply: FastifyReply, signedIn: SignedIn): FastifyReply =>
    sendPage(
      reply,
      page('Not found', html`<p>You have no entity with this id.</p>`, { signedIn, active: 'entities' }),
      404,
    );

  const listPage = (reply: FastifyReply, signedIn: SignedIn, error?: string): FastifyReply => {
    const entities = accounts.userEntities(signedIn.user.id);
    const body = html`${error ? html`<p class="error" role="alert">${error}</p>` : ''}
      <section>
        <h2>Your reporting entities</h2>
        ${
          entities.length === 0
            ? html`<p>No entities yet. Create one below.</p>`
            : html`<table id="entities">
                <tr>
                  <th>ID</th>
                  <th>Name</th>
                  <th>Manager</th>
                  <th>HQ</th>
                  <th>Currency</th>
                  <th>Area unit</th>
                  <th>Role</th>
                </tr>
                ${entities.map(
                  (e) =>
                    html`<tr>
                      <td>${e.id}</td>
                      <td><a href="/portal/entities/${e.id}">${e.name}</a></td>
                      <td>${e.manager}</td>
                      <td>${e.hq_country_name || e.hq_country_code}</td>
                      <td>${e.reporting_preferences.currency}</td>
                      <td>${e.reporting_preferences.area_units_name}</td>
                      <td>${accounts.isEntityOwner(signedIn.user.id, e.id) ? 'Owner' : 'Member'}</td>
                    </tr>`,
                )}
              </table>`
        }
      </section>
      <section>
        <h2>Create a reporting entity for testing</h2>
        <form method="post" action="/portal/entities">
          ${csrfField(signedIn.session.csrfToken)}
          <label>Name <input type="text" name="name" id="entity-name" required maxlength="255" /></label>
          <label>Manager <input type="text" name="manager" maxlength="255" /></label>
          <label
            >HQ country code <input type="text" name="hq_country_code" maxlength="2" placeholder="NL"
          /></label>
          <label>Address <input type="text" name="address" maxlength="255" /></label>
          <label>Currency <input type="text" name="currency" value="EUR" maxlength="3" /></label>
          <label
            >Area unit
            <select name="area_units_name">
              <option>square metres</option>
              <option>square feet</option>
            </select></label
          >
          <label
            >Reporting period ends in month
            <input type="text" name="reporting_period_month" value="12" maxlength="2"
          /></label>
          <button id="create-entity">Create entity</button>
        </form>
      </section>`;
    return sendPage(reply, page('Entities', body, { signedIn, active: 'entities' }), error ? 400 : 200);
  };

  app.get('/', async (_request, reply) => reply.redirect('/portal', 302));
  app.get('/portal', async (request, reply) =>
    reply.redirect(currentSession(ctx, request) ? '/portal/entities' : '/portal/sign-in', 303),
  );

  app.get('/portal/entities', async (request, reply) => {
    const signedIn = currentSession(ctx, request);
    if (!signedIn) return redirectToSignIn(reply, request.url);
    return listPage(reply, signedIn);
  });

  app.post('/portal/entities', async (request, reply) => {
    const signedIn = currentSession(ctx, request);
    if (!signedIn) return redirectToSignIn(reply, '/portal/entities');
    const raw = parseForm(z.object({ csrf_token: z.string().optional() }).loose(), request.body);
    checkCsrf(signedIn, raw.csrf_token);
    const form = newEntityForm.safeParse(request.body);
    if (!form.success) {
      const issue = form.error.issues[0];
      return listPage(
        reply,
        signedIn,
        `Check ${issue?.path.join('.') ?? 'the form'}: ${issue?.message ?? ''}`,
      );
    }
    const code = form.data.hq_country_code;
    if (code && !countryNameByCode.has(code))
      return listPage(reply, signedIn, `${code} is not an ISO 3166 country code`);
    try {
      const entity = admin.createEntity({
        ...form.data,
        hq_country_name: code ? (countryNameByCode.get(code) ?? '') : '',
        owner_user_id: signedIn.user.id,
      });
      return reply.redirect(`/portal/entities/${entity.id}`, 303);
    } catch (error) {
      if (error instanceof AdminError) return listPage(reply, signedIn, error.message);
      throw error;
    }
  });

  app.get('/portal/entities/:id', async (request, reply) => {
    const signedIn = currentSession(ctx, request);
    if (!signedIn) return redirectToSignIn(reply, request.url);
    const entity = entityFor(signedIn, request.params);
    if (!entity) return notFoundPage(reply, signedIn);
    const p = entity.reporting_preferences;
    const body = html`${entityTabs(entity, 'overview', signedIn)}
      <section>
        <table>
          <tr>
            <th>ID</th>
            <td id="entity-id">${entity.id}</td>
          </tr>
          <tr>
            <th>Name</th>
            <td>${entity.name}</td>
          </tr>
          <tr>
            <th>Manager</th>
            <td>${entity.manager}</td>
          </tr>
          <tr>
            <th>HQ</th>
            <td>${entity.hq_country_name} ${entity.hq_country_code}</td>
          </tr>
          <tr>
            <th>Address</th>
            <td>${entity.address}</td>
          </tr>
          <tr>
            <th>Currency</th>
            <td>${p.currency}</td>
          </tr>
          <tr>
            <th>Area unit</th>
            <td>${p.area_units_name}</td>
          </tr>
          <tr>
            <th>Reporting period</th>
            <td>${p.reporting_period}, ending ${p.reporting_period_month_name}</td>
          </tr>
          <tr>
            <th>Assets</th>
            <td>${ctx.store.assets.count(entity.id)}</td>
          </tr>
          <tr>
            <th>Portfolio responses</th>
            <td>${ctx.store.responses.count(entity.id)}</td>
          </tr>
        </table>
      </section>`;
    return sendPage(reply, page(entity.name, body, { signedIn, active: 'entities' }));
  });

  app.get('/portal/entities/:id/access', async (request, reply) => {
    const signedIn = currentSession(ctx, request);
    if (!signedIn) return redirectToSignIn(reply, request.url);
    const entity = entityFor(signedIn, request.params);
    if (!entity) return notFoundPage(reply, signedIn);
    const owner = accounts.isEntityOwner(signedIn.user.id, entity.id);
    const partners = admin.listDataPartners();
    const body = html`${entityTabs(entity, 'access', signedIn)}
      <section>
        <p>
          Data partners with access can read and write this entity's data through the API. Revoking access
          also ends the OAuth authorizations of this entity's users for that partner: their applications must
          ask again.
        </p>
        ${owner ? '' : html`<p class="notice">Only the entity owner can change access rights.</p>`}
        <table id="access-rights">
          <tr>
            <th>Data partner</th>
            <th>Access</th>
            <th></th>
          </tr>
          ${partners.map((p) => {
            const granted = admin.hasEntityAccess(entity.id, p.id);
            return html`<tr>
              <td>${p.name}</td>
              <td>${granted ? 'Granted' : 'Not granted'}</td>
              <td>
                ${
                  owner
                    ? html`<form class="inline" method="post" action="/portal/entities/${entity.id}/access">
                        ${csrfField(signedIn.session.csrfToken)}
                        <input type="hidden" name="data_partner_id" value="${p.id}" /><input
                          type="hidden"
                          name="action"
                          value="${granted ? 'revoke' : 'grant'}"
                        />
                        <button
                          class="${granted ? 'danger' : ''}"
                          id="${granted ? 'revoke' : 'grant'}-${p.id}"
                        >
                          ${granted ? 'Revoke access' : 'Grant access'}
                        </button>
                      </form>`
                    : ''
                }
              </td>
            </tr>`;
          })}
        </table>
      </section>`;
    return sendPage(
      reply,
      page(`${entity.name}: Data Partner Access Rights`, body, { signedIn, active: 'entities' }),
    );
  });

  app.post('/portal/entities/:id/access', async (request, reply) => {
    const signedIn = currentSession(ctx, request);
    if (!signedIn) return redirectToSignIn(reply, '/portal/entities');
    const form = parseForm(accessForm, request.body);
    checkCsrf(signedIn, form.csrf_token);
    const entity = entityFor(signedIn, request.params);
    if (!entity) return notFoundPage(reply, signedIn);
    if (!accounts.isEntityOwner(signedIn.user.id, entity.id) || !admin.getDataPartner(form.data_partner_id)) {
      return sendPage(
        reply,
        page('Not allowed', html`<p>Only the entity owner can change access rights.</p>`, { signedIn }),
        403,
      );
    }
    if (form.action === 'grant') admin.grantEntityAccess(entity.id, form.data_partner_id);
    else admin.revokeEntityAccess(entity.id, form.data_partner_id);
    return reply.redirect(`/portal/entities/${entity.id}/access`, 303);
  });
}
