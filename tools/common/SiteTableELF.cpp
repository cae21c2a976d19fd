//===- SiteTableELF.cpp - the site table of an ELF file -------------------===//
//
// The only part of the readers that needs LLVM (libObject): finding the
// `.sampler_sites` sections of an ELF file. Parsing their contents is
// SiteTable.cpp's, which depends on the C++ standard library only (so that
// it can be fuzzed and reused without libLLVM).
//
//===----------------------------------------------------------------------===//

#include "SiteTable.h"

#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Error.h"

using namespace sampler;

LoadResult sampler::loadSiteTable(const std::string &Path, SiteTable &Table,
                                  std::string &Err) {
  using namespace llvm;
  using namespace llvm::object;
  Table = SiteTable();
  Table.Path = Path;
  Expected<OwningBinary<ObjectFile>> ObjOrErr =
      ObjectFile::createObjectFile(Path);
  if (!ObjOrErr) {
    Err = toString(ObjOrErr.takeError());
    return LoadResult::Error;
  }
  const ObjectFile &Obj = *ObjOrErr->getBinary();
  if (!isa<ELFObjectFileBase>(&Obj)) {
    Err = "not an ELF file";
    return LoadResult::Error;
  }
  bool Found = false;
  for (const SectionRef &Sec : Obj.sections()) {
    Expected<StringRef> Name = Sec.getName();
    if (!Name) {
      consumeError(Name.takeError());
      continue;
    }
    if (*Name != SiteSectionName)
      continue;
    Found = true;
    Expected<StringRef> Contents = Sec.getContents();
    if (!Contents) {
      Err = "cannot read section " + std::string(SiteSectionName) + ": " +
            toString(Contents.takeError());
      return LoadResult::Error;
    }
    std::string E;
    // An object file may hold several sections of that name (one per group);
    // each is a sequence of whole records.
    if (!parseSiteSection(std::string_view(Contents->data(), Contents->size()),
                          Table.Units, E)) {
      Err = "corrupt site table: " + E;
      return LoadResult::Error;
    }
  }
  return Found ? LoadResult::Ok : LoadResult::NoTable;
}

