// Unit and infra tests touch no database; the name only satisfies the fail-fast env check.
process.env.TABLE_NAME ??= 'unit-tests-have-no-table';
process.env.LOG_LEVEL ??= 'silent';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
