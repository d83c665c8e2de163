import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { COURSE_LIMITS, type CourseStateUpdate } from '@oversell/contracts';
import { ValidateIf } from 'class-validator';
import { ArrayMaxSize, ArrayUnique, IsArray, IsString, IsUUID, Matches, MaxLength, says } from '@oversell/lab';

const { lessonIdMaxLength, runIdsMax } = COURSE_LIMITS;

/** PUT /api/course: the lesson the presenter is on, and the runs started for it. */
export class CourseStateUpdateDto implements CourseStateUpdate {
  @ApiProperty({ type: String, nullable: true, maxLength: lessonIdMaxLength, example: 'owner-token', description: "The lesson's id in the course; null: no lesson open." })
  // Required, null allowed: a body without it says nothing about where the presenter is.
  @ValidateIf((update: CourseStateUpdateDto) => update.lessonId !== null)
  @IsString(says({ en: 'lessonId must be a string, or null for no lesson', 'zh-CN': 'lessonId 必须是字符串，没有课程时为 null' }))
  @MaxLength(lessonIdMaxLength, says({ en: `lessonId must be at most ${lessonIdMaxLength} characters`, 'zh-CN': `lessonId 最多 ${lessonIdMaxLength} 个字符` }))
  @Matches(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, says({ en: 'lessonId must be letters, digits, dots, dashes and underscores, starting with a letter or digit', 'zh-CN': 'lessonId 只能由字母、数字、点、连字符和下划线组成，并以字母或数字开头' }))
  lessonId!: string | null;

  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: runIdsMax, description: 'The runs started for this lesson, newest last. Omitted: kept if the lesson is the same, cleared when it changes.' })
  // Omitted is allowed, null is not: null would say neither "keep" nor "these".
  @ValidateIf((update: CourseStateUpdateDto) => update.runIds !== undefined)
  @IsArray(says({ en: 'runIds must be an array of run ids', 'zh-CN': 'runIds 必须是运行 id 的数组' }))
  @ArrayMaxSize(runIdsMax, says({ en: `runIds must hold at most ${runIdsMax} run ids`, 'zh-CN': `runIds 最多包含 ${runIdsMax} 个运行 id` }))
  @ArrayUnique(says({ en: 'runIds must not name a run twice', 'zh-CN': 'runIds 中同一个运行不能出现两次' }))
  @IsUUID({ each: true, ...says({ en: 'each of runIds must be a run id (a UUID)', 'zh-CN': 'runIds 的每一项都必须是运行 id（UUID）' }) })
  runIds?: string[];
}
