import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { FieldMessages, Validations } from '../../shared/domain';
import type { SandboxContext } from '../context';
import type { EntityResource, StoredAsset } from '../store';
import { checkIndicatorValue, indicatorDefinitions, type IndicatorDefinition } from '../model/indicators';
import type { IndicatorValue } from '../model/indicators';
import { parseEvidenceVariable } from '../../shared/responses/catalog';
import { html, type SafeHtml } from './html';
import { page, sendPage } from './layout';
import { currentSession, redirectToSignIn, type SignedIn } from './session';
import { parseQuery } from './forms';

const entityParams = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,15}$/)
    .transform(Number),
});
const responseParams = entityParams.extend({
  response_id: z
    .string()
    .regex(/^[1-9]\d{0,15}$/)
    .transform(Number),
});
const assetQuery = z.object({ show: z.enum(['all', 'errors', 'outliers']).default('all') });

const kpiUnits: Record<string, string> = { en: 'kWh/m2', ghg: 't/m2', was: 't/m2', wat: 'm3/m2' };

function messages(where: string, fm: FieldMessages | undefined, cls: 'bad' | 'warn'): SafeHtml[] {
  return Object.entries(fm ?? {}).flatMap(([field, list]) =>
    list.map((m) => html`<li class="${cls}">${where}<code>${field}</code>: ${m}</li>`),
  );
}

function validationList(a: StoredAsset): SafeHtml[] {
  const v = a.validations;
  const at = (label: string, x: Validations | undefined): SafeHtml[] => [
    ...messages(label, x?.errors, 'bad'),
    ...messages(label, x?.warnings, 'warn'),
  ];
  return [
    ...at('', v.asset),
    ...a.doc.annual_data.flatMap((r, i) => at(`${r.year}: `, v.annualData[i])),
    ...a.doc.certifications.flatMap((_c, i) => at(`certification ${i + 1}: `, v.certifications[i])),
  ];
}

function yearSpan(years: number[]): string {
  if (years.length === 0) return '';
  return years.length === 1
    ? String(years[0])
    : `${Math.min(...years)}–${Math.max(...years)} (${years.length})`;
}

function hasErrors(a: StoredAsset): boolean {
  const v = a.validations;
  const any = (x: Validations | undefined): boolean => Object.keys(x?.errors ?? {}).length > 0;
  return any(v.asset) || v.annualData.some(any) || v.certifications.some(any) || v.energyRatings.some(any);
}

/**
 * The spec's view-only interface: what a data partner sees of the data it sent, with the
 * service's validation and outlier results (assets) and the portfolio answers (responses, whose
 * endpoint returns no validation output, so this page is where they are checked). A partner
 * user sees an entity here only while it is granted to the partner.
 */
export function registerViewPages(app: FastifyInstance, ctx: SandboxContext): void {
  const { admin, assets, responses } = ctx.store;

  const access = (
    request: FastifyRequest,
    reply: FastifyReply,
  ): { signedIn: SignedIn; entity: EntityResource } | FastifyReply => {
    const signedIn = currentSession(ctx, request);
    if (!signedIn) return redirectToSignIn(reply, request.url);
    const parsed = entityParams.safeParse(request.params);
    const partnerId = signedIn.user.data_partner_id;
    const entity = parsed.success ? admin.getEntity(parsed.data.id) : undefined;
    if (!entity || partnerId === null || !admin.hasEntityAccess(entity.id, partnerId)) {
      const body = html`<p>This entity is not granted to your data partner account.</p>`;
      return sendPage(reply, page('Not available', body, { signedIn }), 404);
    }
    return { signedIn, entity };
  };

  app.get('/portal/view/entities/:id/assets', async (request, reply) => {
    const a = access(request, reply);
    if (!('entity' in a)) return a;
    const { show } = parseQuery(assetQuery, request.query);
    const all = assets.all(a.entity.id);
    const withErrors = all.filter(hasErrors);
    const withOutliers = all.filter((x) => x.outliers.length > 0);
    const rows = show === 'errors' ? withErrors : show === 'outliers' ? withOutliers : all;
    const base = `/portal/view/entities/${a.entity.id}/assets`;
    const unit = a.entity.reporting_preferences.area_units_name;
    const body = html`<p class="tabs">
        <a href="/portal/entities/${a.entity.id}">Entity</a> <a href="${base}" class="active">Assets</a
        ><a href="/portal/view/entities/${a.entity.id}/responses">Portfolio responses</a>
      </p>
      <section>
        <p id="asset-summary">
          <strong>${all.length}</strong> assets;
          <span class="bad">${withErrors.length} with validation errors</span>;
          <span class="warn">${withOutliers.length} with outliers</span>. Show:
          <a href="${base}?show=all">all</a> · <a href="${base}?show=errors">with errors</a> ·
          <a href="${base}?show=outliers">with outliers</a>
        </p>
        <table id="assets">
          <tr>
            <th>ID</th>
            <th>Partner's ID</th>
            <th>Name</th>
            <th>Location</th>
            <th>Type</th>
            <th>Size (${unit})</th>
            <th>Years</th>
            <th>Validation</th>
            <th>Outliers</th>
          </tr>
          ${rows.map((x) => {
            const list = validationList(x);
            return html`<tr data-asset-id="${x.id}">
              <td>${x.id}</td>
              <td>${x.doc.partners_id ?? ''}</td>
              <td>${x.doc.name}</td>
              <td>${x.doc.city}, ${x.doc.country}</td>
              <td>${x.doc.property_type_code ?? ''}</td>
              <td>${x.doc.size ?? ''}</td>
              <td>${yearSpan(x.doc.annual_data.map((r) => r.year))}</td>
              <td>
                ${
                  list.length === 0
                    ? html`<span class="muted">OK</span>`
                    : html`<ul>
                        ${list}
                      </ul>`
                }
              </td>
              <td>
                ${
                  x.outliers.length === 0
                    ? ''
                    : html`<ul>
                        ${x.outliers.map(
                          (o) =>
                            html`<li class="warn">
                              ${o.kpi}
                              ${o.type === 'lfl' ? `like-for-like ${o.value} %` : `intensity ${o.value} ${kpiUnits[o.kpi] ?? ''}`}
                              ${o.accepted ? '(accepted)' : '(not accepted)'}
                            </li>`,
                        )}
                      </ul>`
                }
              </td>
            </tr>`;
          })}
        </table>
      </section>`;
    return sendPage(reply, page(`${a.entity.name}: assets (view only)`, body, { signedIn: a.signedIn }));
  });

  app.get('/portal/view/entities/:id/responses', async (request, reply) => {
    const a = access(request, reply);
    if (!('entity' in a)) return a;
    const list = responses.list(a.entity.id);
    const body = html`<section>
      <table id="responses">
        <tr>
          <th>ID</th>
          <th>Survey year</th>
          <th>Assessment</th>
          <th>Status</th>
          <th>Survey open</th>
          <th>Completed</th>
          <th>Updated</th>
        </tr>
        ${list.map(
          (r) =>
            html`<tr>
              <td>${r.id}</td>
              <td>${r.survey_year}</td>
              <td>
                <a href="/portal/view/entities/${a.entity.id}/responses/${r.id}"
                  >${r.survey_year} ${assessmentTitle(r.assessment_type)}</a
                >
              </td>
              <td>${r.status}</td>
              <td>${r.survey_open ? 'yes' : 'no'}</td>
              <td>${responses.percentCompleted(r.id)}%</td>
              <td>${r.updated_at}</td>
            </tr>`,
        )}
      </table>
    </section>`;
    return sendPage(
      reply,
      page(`${a.entity.name}: portfolio responses (view only)`, body, { signedIn: a.signedIn }),
    );
  });

  app.get('/portal/view/entities/:id/responses/:response_id', async (request, reply) => {
    const a = access(request, reply);
    if (!('entity' in a)) return a;
    const params = responseParams.safeParse(request.params);
    const response = params.success ? responses.get(a.entity.id, params.data.response_id) : undefined;
    if (!response)
      return sendPage(
        reply,
        page('Not found', html`<p>No such response.</p>`, { signedIn: a.signedIn }),
        404,
      );
    const values = new Map(responses.values(response.id).map((v) => [v.variable, v]));
    const evidence = evidenceItems(
      responses.values(response.id),
      responses
        .evidenceDocuments(response.id)
        .map((d) => ({ key: `${d.answer_name}#${d.item_number}`, url: d.url })),
    );
    const shown = (def: IndicatorDefinition, value: IndicatorValue): SafeHtml | string => {
      if (value === null) return html`<span class="muted">not answered</span>`;
      const label = (code: string) => def.options?.find((o) => o.code === code)?.label ?? code;
      if (Array.isArray(value))
        return html`<ul>
          ${value.map((c) => html`<li>${label(c)}</li>`)}
        </ul>`;
      return def.kind === 'radio' ? label(String(value)) : String(value);
    };
    const sections = [...new Set(indicatorDefinitions.map((d) => d.section))];
    const body = html`<p class="tabs">
        <a href="/portal/view/entities/${a.entity.id}/assets">Assets</a>
        <a href="/portal/view/entities/${a.entity.id}/responses" class="active">Portfolio responses</a>
      </p>
      <section>
        <p>
          ${response.survey_year} · ${assessmentTitle(response.assessment_type)} · status
          <strong>${response.status}</strong> · survey ${response.survey_open ? 'open' : 'closed'} ·
          ${responses.percentCompleted(response.id)}% completed · updated ${response.updated_at}
        </p>
      </section>
      ${sections.map(
        (sec) =>
          html`<section>
            <h2>${sec}</h2>
            <table>
              <tr>
                <th>Indicator</th>
                <th>Answer</th>
                <th>Check</th>
                <th>Version</th>
                <th>Evidence</th>
              </tr>
              ${indicatorDefinitions
                .filter((d) => d.section === sec)
                .map((d) => {
                  const v = values.get(d.variable);
                  const problems = v ? checkIndicatorValue(d, v.value) : [];
                  const items = evidence.filter((e) => e.answer === d.evidence);
                  return html`<tr data-variable="${d.variable}">
                    <td><code>${d.variable}</code><br />${d.label}</td>
                    <td>${shown(d, v?.value ?? null)}</td>
                    <td>
                      ${v === undefined || v.value === null ? html`<span class="warn">missing</span>` : problems.length > 0 ? html`<span class="bad">${problems.join('; ')}</span>` : 'OK'}
                    </td>
                    <td>${v?.lock_version ?? 0}</td>
                    <td>
                      ${items.map((e) => html`${e.type === 'H' ? 'Hyperlink' : 'File'} ${e.item}: ${e.url ?? ''}<br />`)}
                    </td>
                  </tr>`;
                })}
            </table>
          </section>`,
      )}
      <section>
        <h2>Evidence</h2>
        <table id="evidence">
          <tr>
            <th>Answer</th>
            <th>Item</th>
            <th>Type</th>
            <th>Link</th>
            <th>Document id</th>
            <th>Notes</th>
            <th>Shared</th>
          </tr>
          ${evidence.map(
            (e) =>
              html`<tr id="${e.answer}-${e.item}">
                <td><code>${e.answer}</code></td>
                <td>${e.item}</td>
                <td>${e.type}</td>
                <td>${e.url ?? ''}</td>
                <td>${e.docId ?? ''}</td>
                <td>${e.notes ?? ''}</td>
                <td>${e.shared === null ? '' : e.shared ? 'yes' : 'no'}</td>
              </tr>`,
          )}
        </table>
      </section>`;
    return sendPage(
      reply,
      page(`${a.entity.name}: ${response.survey_year} response (view only)`, body, { signedIn: a.signedIn }),
    );
  });
}

function assessmentTitle(type: string): string {
  return type === 'real_estate' ? 'Real Estate Assessment' : type === 'sfdr_re' ? 'SFDR (real estate)' : type;
}

interface EvidenceRow {
  answer: string;
  item: number;
  type: string;
  url: string | null;
  docId: string | null;
  notes: string | null;
  shared: boolean | null;
}

/** The evidence items a response's values hold (TYPE, LINK, DOCID, NOTES, SHARE per item). */
function evidenceItems(
  values: ReadonlyArray<{ variable: string; value: IndicatorValue }>,
  documents: ReadonlyArray<{ key: string; url: string }>,
): EvidenceRow[] {
  const items = new Map<string, EvidenceRow>();
  const urls = new Map(documents.map((d) => [d.key, d.url]));
  for (const v of values) {
    const part = parseEvidenceVariable(v.variable);
    if (!part) continue;
    const key = `${part.answerName}#${part.item}`;
    const row = items.get(key) ?? {
      answer: part.answerName,
      item: part.item,
      type: '',
      url: urls.get(key) ?? null,
      docId: null,
      notes: null,
      shared: null,
    };
    const text = v.value === null ? null : String(v.value);
    if (part.part === 'TYPE') row.type = text ?? '';
    if (part.part === 'LINK') row.url = text;
    if (part.part === 'DOCID') row.docId = text;
    if (part.part === 'NOTES') row.notes = text;
    if (part.part === 'SHARE') row.shared = v.value === null ? null : String(v.value) === '1';
    items.set(key, row);
  }
  return [...items.values()]
    .filter((e) => e.type !== '')
    .sort((x, y) => x.answer.localeCompare(y.answer) || x.item - y.item);
}
