/** JSON Schemas of one operation, as the generator emits them */
export interface OperationSchemas {
  params?: object;
  query?: object;
  body?: object;
  responses: Record<string, object>;
}

/** One row of the generated route table */
export interface RouteEntry {
  api: string;
  operationId: string;
  method: string;
  /** @koa/router path, such as `/config/:ip` */
  path: string;
  bodyRequired: boolean;
  /** Non-JSON media types the spec declares for the body (lower case): a request in one of them gets the raw bytes */
  rawBodyTypes?: readonly string[];
  schemas: OperationSchemas;
}
