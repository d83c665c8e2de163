import { describeRedlockNodeLoss } from '../../testing';

/** The redlock strategy with nodes down (its multi-process correctness is in ../correctness.int-spec.ts). */
describeRedlockNodeLoss('redlock');
