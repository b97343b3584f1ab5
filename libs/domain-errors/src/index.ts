export {
  DomainError,
  alreadyExists,
  conflict,
  forbidden,
  invalid,
  isDomainError,
  notFound,
  refused,
  unavailable,
  type DomainErrorKind,
  type ErrorDetails,
  type JsonValue,
} from './domain-error';
