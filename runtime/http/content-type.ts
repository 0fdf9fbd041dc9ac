/** The `Content-Type` of every JSON answer, from Koa and from the raw socket alike, so clients see one spelling */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
