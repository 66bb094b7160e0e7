var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
/** Arguments of `tag_note`; a missing tag is asked of the user. */
export class TagNoteDto {
}
__decorate([
    IsString(),
    MinLength(1),
    __metadata("design:type", String)
], TagNoteDto.prototype, "id", void 0);
__decorate([
    IsOptional(),
    IsString(),
    MinLength(1),
    MaxLength(50),
    __metadata("design:type", String)
], TagNoteDto.prototype, "tag", void 0);
//# sourceMappingURL=tag-note.dto.js.map