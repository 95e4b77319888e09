/** Message templates: plain `{{placeholder}}` substitution over the spec's 13 names, no logic (DESIGN §2c). */
export * from './built-in';
export * from './placeholders';
export * from './render';
export * from './template';
export * from './values';
