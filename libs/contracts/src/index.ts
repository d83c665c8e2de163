export * from './errors';
export * from './orders';
export * from './products';
export * from './runs';
export * from './exclusion-violations';
export * from './strategies';
export * from './scenarios';
export * from './bench';
