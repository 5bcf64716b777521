import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { accessRules } from '../auth/scopes';
import { parseIdParam, routeAccess } from '../auth/guard';
import { ApiError, badRequest, forbidden, notFound } from '../http/errors';
import { checkIndicatorValue, indicatorDefinition, indicatorDefinitions } from '../model/indicators';
import type { SandboxContext } from '../context';
import type { PortfolioResponse, ResponseDocument } from '../store/responses-repo';

/** Evidence limits: what the portal accepts as supporting documents. */
export const maxDocumentBytes = 10 * 1024 * 1024;
export const documentTypes: Readonly<Record<string, readonly string[]>> = {
  'application/pdf': ['.pdf'],
  'image/png': ['.png'],
  'image/jpeg': ['.jpg', '.jpeg'],
  'text/plain': ['.txt'],
  'text/csv': ['.csv'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['.xlsx'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['.docx'],
};

const valueWrite = z.object({
  value: z.union([z.string(), z.array(z.string()), z.null()]),
  lock_version: z.number().int().min(0),
});
const documentFields = z.object({ variable: z.string().optional() }).loose();

const documentResource = (d: ResponseDocument) => ({
  id: d.id,
  filename: d.filename,
  size: d.size,
  content_type: d.content_type,
  variable: d.variable,
  sha256: d.sha256,
  created_at: d.created_at,
});

/**
 * Portfolio responses (`/api/v0`). Shapes are ours (the spec does not show them):
 * response `{ id, year, name, state, created_at, updated_at }`; one response adds `indicators`
 * (definitions), `values` and `documents`; value `{ variable, value, lock_version, updated_at }`.
 */
export function registerResponseRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { admin, responses } = ctx.store;
  const read = routeAccess(admin, accessRules.readResponses);
  const write = routeAccess(admin, accessRules.writeResponses);

  const findResponse = (request: FastifyRequest): PortfolioResponse => {
    const entityId = request.entityId ?? -1;
    const id = parseIdParam((request.params as Record<string, unknown>)['response_id'], 'Response');
    const response = responses.get(entityId, id);
    if (!response) throw notFound(`Response ${id} not found in entity ${entityId}`);
    return response;
  };
  const findVariable = (request: FastifyRequest) => {
    const variable = String((request.params as Record<string, unknown>)['variable'] ?? '');
    const def = indicatorDefinition(variable);
    if (!def) throw notFound(`No indicator variable ${variable}`);
    return def;
  };
  const writable = (response: PortfolioResponse): void => {
    if (response.state !== 'open')
      throw forbidden(`Response ${response.id} is ${response.state} and read-only`);
  };
  const summary = (r: PortfolioResponse) => ({
    id: r.id,
    year: r.year,
    name: r.name,
    state: r.state,
    created_at: r.created_at,
    updated_at: r.updated_at,
  });

  app.get('/api/v0/entities/:entity_id/responses', read, async (request) =>
    responses.list(request.entityId ?? -1).map(summary),
  );

  app.get('/api/v0/entities/:entity_id/responses/:response_id', read, async (request) => {
    const r = findResponse(request);
    const stored = new Map(responses.values(r.id).map((v) => [v.variable, v]));
    return {
      ...summary(r),
      indicators: indicatorDefinitions,
      values: indicatorDefinitions.map((d) => stored.get(d.variable) ?? responses.getValue(r.id, d.variable)),
      documents: responses.documents(r.id).map(documentResource),
    };
  });

  app.get('/api/v0/entities/:entity_id/responses/:response_id/values/:variable', read, async (request) => {
    const r = findResponse(request);
    return responses.getValue(r.id, findVariable(request).variable);
  });

  app.post(
    '/api/v0/entities/:entity_id/responses/:response_id/values/:variable',
    write,
    async (request, reply) => {
      const r = findResponse(request);
      const def = findVariable(request);
      const body = valueWrite.safeParse(request.body);
      if (!body.success) {
        throw badRequest(
          'The body must be JSON { "value": <string | string[] | null>, "lock_version": <integer, the version you read> }',
        );
      }
      writable(r);
      const problems = checkIndicatorValue(def, body.data.value);
      if (problems.length > 0) {
        return reply.code(422).send({
          variable: def.variable,
          value: body.data.value,
          _validations: { errors: { value: problems } },
        });
      }
      const outcome = responses.writeValue(r.id, def.variable, body.data.value, body.data.lock_version);
      if (!outcome.ok) {
        return reply.code(409).send({
          error: 'conflict',
          message: `lock_version ${body.data.lock_version} is stale: the value is at version ${outcome.current.lock_version}. Merge with current and send again.`,
          current: outcome.current,
        });
      }
      return outcome.value;
    },
  );

  app.post(
    '/api/v0/entities/:entity_id/responses/:response_id/documents',
    { ...write, config: { multipartOptions: { limits: { fileSize: maxDocumentBytes, files: 1 } } } },
    async (request, reply) => {
      const r = findResponse(request);
      if (!request.isMultipart())
        throw new ApiError(
          415,
          'unsupported_media_type',
          'Send the document as multipart/form-data with a "file" field',
        );
      writable(r);
      const file = request.uploads?.find((u) => u.fieldname === 'file');
      if (!file) throw badRequest('The multipart body has no "file" field');
      if (file.content.length === 0) throw badRequest(`${file.filename || 'The file'} is empty`);
      const filename = path.basename(file.filename.replace(/\\/g, '/')).slice(0, 255);
      const type = file.mimetype.toLowerCase().split(';')[0]?.trim() ?? '';
      const extensions = documentTypes[type];
      const allowed = Object.keys(documentTypes).join(', ');
      if (!extensions)
        throw new ApiError(
          415,
          'unsupported_media_type',
          `Documents of type ${type || 'unknown'} are not accepted; allowed: ${allowed}`,
        );
      if (!extensions.includes(path.extname(filename).toLowerCase()))
        throw new ApiError(
          415,
          'unsupported_media_type',
          `${filename}: the extension does not match ${type} (expected ${extensions.join(' or ')})`,
        );
      const fields = documentFields.parse(request.body ?? {});
      const variable = typeof fields.variable === 'string' && fields.variable !== '' ? fields.variable : null;
      if (variable !== null && !indicatorDefinition(variable)?.evidence)
        throw badRequest(`Indicator ${variable} does not exist or takes no evidence`);
      const doc = responses.addDocument({
        responseId: r.id,
        variable,
        filename,
        contentType: type,
        content: file.content,
        dataPartnerId: request.principal?.dataPartnerId ?? null,
      });
      return reply.code(201).send(documentResource(doc));
    },
  );
}
