import { Exception } from 'node-zookeeper-client';

type Callback<T> = (error: Error | Exception | null, value: T) => void;

/** One node-zookeeper-client call as a promise: `zk((done) => client.getChildren(path, done))`. */
export function zk<T>(call: (done: Callback<T>) => void): Promise<T> {
  return new Promise((resolve, reject) => call((error, value) => (error ? reject(error) : resolve(value))));
}

/** Whether a failed call failed with this ZooKeeper error code (Exception.NO_NODE, …). */
export const failedWith = (error: unknown, code: number) => error instanceof Exception && error.getCode() === code;
