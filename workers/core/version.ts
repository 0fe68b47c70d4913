/** The API version that /openapi.json and /v1/version report (docs/rules.md "Rules" 9). */
export const API_VERSION = "0.1.0";
