export * from './api-client';
export * from './bad-requests';
export * from './describe-bad-requests';
export * from './endless-body';
export * from './raw-request';
