import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { accessRules } from '../../shared/auth/scopes';
import { parseIdParam, routeAccess } from '../auth/guard';
import { singleResourceBodyLimit } from '../http/limits';
import { ApiError, badRequest, forbidden, notFound } from '../http/errors';
import { checkIndicatorValue, indicatorOfEvidence, valueRule } from '../model/indicators';
import type { SandboxContext } from '../context';
import type { PortfolioResponse, ResponsesRepo, ResponseValue } from '../store/responses-repo';

/** The docs' 404 for a variable that is not whitelisted, word for word. */
export const variableNotFound = { error: 'Variable could not be found.' } as const;

/** The docs send lock_version as "1" and as 1: both are taken. */
const lockVersion = z.union([
  z.number().int().min(0),
  z
    .string()
    .regex(/^\d{1,15}$/)
    .transform(Number),
]);
const valueWrite = z.object({
  lock_version: lockVersion,
  value: z.union([z.string(), z.number().finite(), z.array(z.string()), z.null()]),
});
/**
 * POST documents: a link to a hosted file. Its lock_version must be a version (the docs send "0" for
 * a new item); the sandbox keeps none for the answer itself, whose items carry their own.
 */
const documentLink = z.object({
  answer_name: z.string().min(1).max(200),
  lock_version: lockVersion,
  evidence_type: z.string().min(1).max(10),
  url: z.string().min(1).max(4_000),
});

/** A value as GET values/{variable} shows it: lock_version is a string there. */
const valueShape = (v: ResponseValue) => ({
  variable: v.variable,
  value: v.value,
  lock_version: String(v.lock_version),
  created_at: v.created_at,
  updated_at: v.updated_at,
});

/** The stored answer row a write answers, with the docs' fields (lock_version an integer there). */
const answerRow = (v: ResponseValue) => ({
  id: v.id,
  analysis_id: v.response_id,
  variable: v.variable,
  value: v.value,
  created_at: v.created_at,
  updated_at: v.updated_at,
  validator_id: null,
  validation_status: null,
  secondary_validation_status: null,
  secondary_validator_id: null,
  reachable_on_submit: true,
  raw_value: null,
  decimal_separator: null,
  validatable: false,
  session_ident: null,
  lock_version: v.lock_version,
  validation_color: null,
  validation_escalate: false,
  validator_validation_date: null,
  secondary_validation_date: null,
  automatic_validation: false,
  similar_value_id: null,
  similar_value_count: null,
});

const summaryOf = (responses: ResponsesRepo, r: PortfolioResponse) => ({
  id: r.id,
  entity_id: r.entity_id,
  business_line: r.business_line,
  survey_year: r.survey_year,
  name: r.name,
  manager: r.manager,
  status: r.status,
  survey_open: r.survey_open,
  assessment_type: r.assessment_type,
  percent_completed: responses.percentCompleted(r.id),
  created_at: r.created_at,
  updated_at: r.updated_at,
});

/**
 * Portfolio responses (`/api/v0`), answering as the service's docs show: summaries (GET of one is an
 * array of one), values by whitelisted variable with optimistic locking, evidence files by link.
 */
export function registerResponseRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { responses } = ctx.store;
  const read = routeAccess(ctx.store.admin, accessRules.readResponses);
  const write = {
    ...routeAccess(ctx.store.admin, accessRules.writeResponses),
    bodyLimit: singleResourceBodyLimit,
  };

  const findResponse = (request: FastifyRequest): PortfolioResponse => {
    const entityId = request.entityId ?? -1;
    const id = parseIdParam((request.params as Record<string, unknown>)['response_id'], 'Response');
    const response = responses.get(entityId, id);
    if (!response) throw notFound(`Response ${id} not found in entity ${entityId}`);
    return response;
  };
  const variableOf = (request: FastifyRequest): string =>
    String((request.params as Record<string, unknown>)['variable'] ?? '');
  const writable = (r: PortfolioResponse): void => {
    if (responses.isReadOnly(r))
      throw forbidden(
        `Response ${r.id} is ${r.status}${r.survey_open ? '' : ' and its survey is closed'}: it is read-only`,
      );
  };
  const unknownVariable = (reply: FastifyReply) => reply.code(404).send(variableNotFound);

  app.get('/api/v0/entities/:entity_id/responses', read, async (request) =>
    responses.list(request.entityId ?? -1).map((r) => summaryOf(responses, r)),
  );

  app.get('/api/v0/entities/:entity_id/responses/:response_id', read, async (request) => [
    summaryOf(responses, findResponse(request)),
  ]);

  app.get(
    '/api/v0/entities/:entity_id/responses/:response_id/values/:variable',
    read,
    async (request, reply) => {
      const r = findResponse(request);
      const variable = variableOf(request);
      if (!valueRule(variable)) return unknownVariable(reply);
      return valueShape(responses.getValue(r.id, variable));
    },
  );

  app.post(
    '/api/v0/entities/:entity_id/responses/:response_id/values/:variable',
    write,
    async (request, reply) => {
      const r = findResponse(request);
      const variable = variableOf(request);
      const rule = valueRule(variable);
      if (!rule) return unknownVariable(reply);
      const body = valueWrite.safeParse(request.body);
      if (!body.success) {
        throw badRequest(
          'The body must be JSON { "lock_version": <the version you read, "1" or 1>, "value": <string | number | string[] | null> }',
        );
      }
      writable(r);
      const problems = checkIndicatorValue(rule, body.data.value);
      if (problems.length > 0) {
        return reply
          .code(422)
          .send({ variable, value: body.data.value, _validations: { errors: { value: problems } } });
      }
      const outcome = responses.writeValue(r.id, variable, body.data.value, body.data.lock_version);
      if (!outcome.ok) {
        return reply.code(409).send({
          error: 'conflict',
          message: `lock_version ${body.data.lock_version} is stale: the value is at version ${outcome.current.lock_version}. Read it, merge, and send again.`,
          current: valueShape(outcome.current),
        });
      }
      return answerRow(outcome.value);
    },
  );

  // Refused before the body is read: an upload (multipart) would otherwise meet the parser's limits.
  const linkOnly = async (request: FastifyRequest): Promise<void> => {
    const type = String(request.headers['content-type'] ?? '').toLowerCase();
    if (request.principal !== undefined && !type.startsWith('application/json'))
      throw new ApiError(
        415,
        'unsupported_media_type',
        'Send JSON { "answer_name", "lock_version", "evidence_type": "F", "url" }: evidence is a link to a file hosted elsewhere, not an upload',
      );
  };

  app.post(
    '/api/v0/entities/:entity_id/responses/:response_id/documents',
    { ...write, preParsing: linkOnly },
    async (request, reply) => {
      const r = findResponse(request);
      const body = documentLink.safeParse(request.body);
      if (!body.success) {
        const fields = [...new Set(body.error.issues.map((i) => String(i.path[0] ?? 'body')))];
        throw badRequest(
          `answer_name, lock_version, evidence_type and url are all required (check: ${fields.join(', ')})`,
        );
      }
      const { answer_name: answerName, evidence_type: evidenceType, url } = body.data;
      if (!indicatorOfEvidence(answerName)) return unknownVariable(reply);
      writable(r);
      const errors: Record<string, string[]> = {};
      if (evidenceType !== 'F')
        errors['evidence_type'] = [
          'must be F (a file at a URL); send a hyperlink as the values TYPE (H) and LINK',
        ];
      const urlProblems = checkIndicatorValue({ kind: 'url' }, url);
      if (urlProblems.length > 0) errors['url'] = urlProblems;
      if (Object.keys(errors).length > 0)
        return reply.code(422).send({ answer_name: answerName, _validations: { errors } });
      const added = responses.addEvidenceDocument({
        responseId: r.id,
        answerName,
        evidenceType,
        url,
        dataPartnerId: request.principal?.dataPartnerId ?? null,
      });
      const origin = `${request.protocol}://${request.headers.host ?? '127.0.0.1'}`;
      return {
        answer_name: answerName,
        item_number: added.item,
        evidence_type: evidenceType,
        report_url: `${origin}/portal/view/entities/${r.entity_id}/responses/${r.id}#${answerName}-${added.item}`,
        variables: Object.fromEntries(
          Object.entries(added.variables).map(([part, v]) => [
            part,
            { variable: v.variable, value: v.value },
          ]),
        ),
      };
    },
  );
}
